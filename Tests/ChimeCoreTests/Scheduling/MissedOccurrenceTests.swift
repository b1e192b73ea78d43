import ChimeCore
import FoundationEssentials
import Testing

/// A repeating calendar trigger whose fire came late (the machine slept through several of its
/// dates) fires next at its first date after now: the dates it missed are not replayed one by one.
@Suite struct MissedOccurrenceTests {
  let utc = Zone.named("UTC")!
  /// 2027-01-15 09:00:00 UTC.
  let nineOClock = Instant(unixMillis: 1_800_003_600_000)

  func daily(hour: Int, zone: String? = nil) -> Trigger {
    var components = CalendarComponents()
    components.hour = hour
    components.minute = 0
    components.second = 0
    components.timeZone = zone
    return .calendar(CalendarTrigger(components: components, repeats: true))
  }

  @Test func aDailyTriggerLateByDaysFiresNextAtItsFirstDateAfterNow() throws {
    let day: Int64 = 86_400_000
    let trigger = daily(hour: 9, zone: "UTC")
    let due = try TriggerPlanner.firstFire(of: trigger, added: nineOClock.adding(millis: -1000))
    #expect(due == nineOClock)
    // On time: the next day's 09:00.
    #expect(TriggerPlanner.nextFire(of: trigger, due: due, now: due, zone: utc) == due.adding(millis: day))
    // Seen three days and an hour late: the 09:00 after now, not the day after the missed one.
    let now = due.adding(millis: 3 * day + 3_600_000)
    #expect(TriggerPlanner.nextFire(of: trigger, due: due, now: now, zone: utc) == due.adding(millis: 4 * day))
    // Seen exactly on a later date: strictly after it.
    #expect(TriggerPlanner.nextFire(of: trigger, due: due, now: due.adding(millis: 2 * day), zone: utc) == due.adding(millis: 3 * day))
  }

  @Test func aFloatingTriggerLateByDaysFollowsTheZoneItIsGiven() {
    let day: Int64 = 86_400_000
    let trigger = daily(hour: 9)
    let now = nineOClock.adding(millis: 5 * day + 60_000)
    #expect(TriggerPlanner.nextFire(of: trigger, due: nineOClock, now: now, zone: utc) == nineOClock.adding(millis: 6 * day))
  }
}
