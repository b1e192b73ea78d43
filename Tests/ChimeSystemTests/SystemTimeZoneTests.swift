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

  /// `$TZ` names a zone inside the zoneinfo tree or nothing: a path out of it, an absolute path
  /// or a POSIX rule text falls through to the link.
  @Test func tzNamesOnlyZonesInTheTree() {
    let link = "/usr/share/zoneinfo/Asia/Kathmandu"
    for tz in ["../../../etc/passwd", ":/etc/localtime", "/usr/share/zoneinfo/Europe/Berlin", "Europe/../Asia/Tokyo",
               "CET-1CEST,M3.5.0,M10.5.0/3", "right/Europe/Berlin", "localtime"] {
      #expect(SystemTimeZone.zone(tz: tz, localtimeLink: link)?.identifier == "Asia/Kathmandu", "TZ=\(tz)")
    }
    let zone = SystemTimeZone.zone(tz: "Australia/Lord_Howe", localtimeLink: nil)
    // 2027-01-15: summer there, +11:00.
    #expect(zone?.secondsFromUTC(at: Instant(unixMillis: 1_800_000_000_000)) == 39_600)
  }
}
