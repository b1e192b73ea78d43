import ChimeCore
import ChimeSystem
import Foundation
import Testing

@Suite struct SystemTimeZoneTests {
  @Test func tzComesFirstThenTheLocaltimeLink() {
    let link = "/usr/share/zoneinfo/Asia/Kathmandu"
    #expect(SystemTimeZone.zone(tz: "Europe/Berlin", localtimeLink: link)?.identifier == "Europe/Berlin")
    #expect(SystemTimeZone.zone(tz: ":America/New_York", localtimeLink: link)?.identifier == "America/New_York")
    #expect(SystemTimeZone.zone(tz: "Not/AZone", localtimeLink: link)?.identifier == "Asia/Kathmandu")
    #expect(SystemTimeZone.zone(tz: "", localtimeLink: link)?.identifier == "Asia/Kathmandu")
    #expect(SystemTimeZone.zone(tz: nil, localtimeLink: "/etc/somewhere") == nil)
    #expect(SystemTimeZone.zone(tz: nil, localtimeLink: nil) == nil)
  }
}
