import ChimeCore
import Foundation
import Testing

/// A rule that can never fire is refused with NOTIFICATION_INVALID_NO_DATE, after bounded work.
@Suite struct RecurrenceNoDateTests {
  static let neverFiring = [
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
    "FREQ=WEEKLY;BYMONTH=4;BYDAY=MO;BYHOUR=9;BYSETPOS=7",
    "FREQ=MONTHLY;BYDAY=6MO",
    "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=4,6,9,11",
    "FREQ=YEARLY;BYWEEKNO=1;BYYEARDAY=200",
    "FREQ=DAILY;INTERVAL=9999;BYMONTH=2;BYMONTHDAY=-30",
  ]

  @Test("never fires", arguments: neverFiring)
  func neverFires(_ rule: String) throws {
    let r = try RecurrenceSupport.recurrence(rule, "2026-01-01T09:00", zone: "Europe/Berlin")
    let clock = ContinuousClock()
    let started = clock.now
    let error = RecurrenceSupport.error { () throws(ChimeError) in
      try RecurrenceEngine.firstFire(after: Instant(unixMillis: 0), recurrence: r, zone: .utc, field: "request.trigger.recurrence")
    }
    #expect(error?.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(error?.field == "request.trigger.recurrence")
    #expect(error?.message.contains("never makes an occurrence") == true, "\(error?.message ?? "")")
    #expect(RecurrenceEngine.nextFires(after: Instant(unixMillis: 0), count: 3, recurrence: r, zone: .utc).isEmpty)
    // Bounded: one 400-year calendar cycle of periods at most (a debug build on a busy machine).
    #expect(clock.now - started < .seconds(5))
  }

  @Test func anEndedRuleHasNoDateAfterItsEnd() throws {
    let r = try RecurrenceSupport.recurrence("FREQ=DAILY;COUNT=2", "2026-01-01T09:00", zone: "UTC")
    let after = Instant(try Date("2026-01-03T00:00:00Z", strategy: .iso8601))
    let error = RecurrenceSupport.error { () throws(ChimeError) in
      try RecurrenceEngine.firstFire(after: after, recurrence: r, zone: .utc, field: "t")
    }
    #expect(error?.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(error?.message.contains("it ended") == true)
    let fire = try RecurrenceEngine.firstFire(after: Instant(unixMillis: 0), recurrence: r, zone: .utc, field: "t")
    #expect(fire.utcISO8601 == "2026-01-01T09:00:00Z")
  }

  @Test func everyOccurrenceExcluded() throws {
    let r = try RecurrenceSupport.recurrence("FREQ=DAILY;COUNT=1", "2026-01-01T09:00", zone: "UTC", exclusions: ["2026-01-01T09:00"])
    let error = RecurrenceSupport.error { () throws(ChimeError) in
      try RecurrenceEngine.firstFire(after: Instant(unixMillis: 0), recurrence: r, zone: .utc, field: "t")
    }
    #expect(error?.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(error?.message.contains("exclusions remove") == true)
  }

  @Test func anUnknownZoneIsRefused() throws {
    let r = try RecurrenceSupport.recurrence("FREQ=DAILY", "2026-01-01T09:00", zone: "Mars/Olympus_Mons")
    let error = RecurrenceSupport.error { () throws(ChimeError) in
      try RecurrenceEngine.firstFire(after: Instant(unixMillis: 0), recurrence: r, zone: .utc, field: "t")
    }
    #expect(error?.reason == "INVALID_TIME_ZONE" && error?.field == "t.time_zone")
  }
}
