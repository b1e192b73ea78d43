import ChimeCore
import Foundation
import Testing

/// How a floating calendar trigger is re-planned when the daemon's zone changes.
@Suite struct FloatingReplanTests {
  static let now = Instant(unixMillis: 1_800_000_000_000)  // 2027-01-15T08:00:00Z

  static func daily(hour: Int, zone: String? = nil, year: Int? = nil) -> NotificationRequest {
    var components = CalendarComponents()
    components.hour = hour
    components.minute = 0
    components.timeZone = zone
    components.year = year
    return NotificationRequest(identifier: "d", content: NotificationContent(title: "t"),
                               trigger: .calendar(CalendarTrigger(components: components, repeats: year == nil)))
  }

  @Test func wallTimeStaysWhenTheZoneChanges() throws {
    let request = Self.daily(hour: 9)
    let newYork = try #require(Zone.named("America/New_York"))
    let tokyo = try #require(Zone.named("Asia/Tokyo"))
    let current = try #require(CalendarEngine.nextFire(after: Self.now, trigger: Self.calendar(request), zone: newYork)?.instant)
    let decision = FloatingReplan.decide(request, current: current, zone: tokyo, now: Self.now)
    let expected = try #require(CalendarEngine.nextFire(after: Self.now, trigger: Self.calendar(request), zone: tokyo)?.instant)
    #expect(decision == .move(to: expected))
    #expect(expected != current)
  }

  @Test func theSameInstantIsUnchanged() throws {
    let request = Self.daily(hour: 9)
    let utc = try #require(Zone.named("UTC"))
    let current = try #require(CalendarEngine.nextFire(after: Self.now, trigger: Self.calendar(request), zone: utc)?.instant)
    #expect(FloatingReplan.decide(request, current: current, zone: try #require(Zone.named("Etc/UTC")), now: Self.now) == .unchanged)
  }

  @Test func aTriggerWithAZoneOfItsOwnIsNotFloating() throws {
    let request = Self.daily(hour: 9, zone: "Europe/Paris")
    #expect(request.trigger?.isFloating == false)
    #expect(FloatingReplan.decide(request, current: Self.now, zone: try #require(Zone.named("Asia/Tokyo")), now: Self.now) == .unchanged)
    #expect(Self.daily(hour: 9).trigger?.isFloating == true)
    #expect(Trigger.timeInterval(TimeIntervalTrigger(seconds: 5)).isFloating == false)
  }

  @Test func aTriggerThatCanNoLongerMatchIsRemoved() throws {
    // 09:00 on the last day of a year already over in the new zone.
    var request = Self.daily(hour: 9, year: 2027)
    if case .calendar(var trigger)? = request.trigger {
      trigger.components.month = 1
      trigger.components.day = 15
      request.trigger = .calendar(trigger)
    }
    let decision = FloatingReplan.decide(request, current: Self.now, zone: try #require(Zone.named("Asia/Tokyo")), now: Self.now)
    #expect(decision == .remove)
    #expect(FloatingReplan.note(zone: try #require(Zone.named("Asia/Tokyo")), removed: true).contains("no later date"))
  }

  static func calendar(_ request: NotificationRequest) -> CalendarTrigger {
    guard case .calendar(let trigger)? = request.trigger else { fatalError("a calendar request") }
    return trigger
  }
}
