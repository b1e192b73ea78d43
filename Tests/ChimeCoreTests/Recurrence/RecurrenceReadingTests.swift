import ChimeCore
import Foundation
import Testing

/// The reading Chime gives where RFC 5545 section 3.3.10 contradicts itself (the README's
/// "Which reading"): the section's table of expanding and limiting parts, as python-dateutil
/// reads it. A rule that names its days in any way takes every day of the period they allow;
/// the start supplies only what the rule does not name at all. The expected occurrences are
/// python-dateutil's for the same rule and start. Calendar files' recurrences are expanded
/// here too, so a switch to the prose's reading (libical's) would move users' alarms.
@Suite struct RecurrenceReadingTests {
  typealias S = RecurrenceSupport

  static func at9(_ days: [String]) -> [String] { days.map { $0 + "T09:00:00" } }

  @Test func yearlyByWeekNumberWithoutByDayIsEveryDayOfThatWeek() throws {
    // 2026-03-10 is a Tuesday; week 20 of 2026 runs Monday 11 May to Sunday 17 May.
    let made = try S.walls("FREQ=YEARLY;BYWEEKNO=20", "2026-03-10T09:00", zone: "Europe/Berlin", count: 14)
    #expect(made == Self.at9([
      "2026-05-11", "2026-05-12", "2026-05-13", "2026-05-14", "2026-05-15", "2026-05-16", "2026-05-17",
      "2027-05-17", "2027-05-18", "2027-05-19", "2027-05-20", "2027-05-21", "2027-05-22", "2027-05-23",
    ]))
    // The start's weekday is taken only when BYDAY says so.
    #expect(try S.walls("FREQ=YEARLY;BYWEEKNO=20;BYDAY=TU", "2026-03-10T09:00", zone: "Europe/Berlin", count: 3)
      == Self.at9(["2026-05-12", "2027-05-18", "2028-05-16"]))
  }

  @Test func yearlyByMonthDayWithoutByMonthIsThatDayOfEveryMonth() throws {
    let made = try S.walls("FREQ=YEARLY;BYMONTHDAY=1", "2026-03-10T09:00", zone: "Europe/Berlin", count: 12)
    #expect(made == Self.at9([
      "2026-04-01", "2026-05-01", "2026-06-01", "2026-07-01", "2026-08-01", "2026-09-01",
      "2026-10-01", "2026-11-01", "2026-12-01", "2027-01-01", "2027-02-01", "2027-03-01",
    ]))
    // The start's month is taken only when BYMONTH says so.
    #expect(try S.walls("FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=3", "2026-03-10T09:00", zone: "Europe/Berlin", count: 3)
      == Self.at9(["2027-03-01", "2028-03-01", "2029-03-01"]))
  }

  @Test func aRuleThatNamesNoDayTakesTheStartsDayAndMonth() throws {
    #expect(try S.walls("FREQ=YEARLY", "2026-03-10T09:00", zone: "Europe/Berlin", count: 3)
      == Self.at9(["2026-03-10", "2027-03-10", "2028-03-10"]))
    // BYMONTH alone names no day: the start's day in each month it names.
    #expect(try S.walls("FREQ=YEARLY;BYMONTH=3,4", "2026-03-10T09:00", zone: "Europe/Berlin", count: 4)
      == Self.at9(["2026-03-10", "2026-04-10", "2027-03-10", "2027-04-10"]))
  }

  @Test func byWeekNumberWithIntervalCountsCalendarYears() throws {
    // Week 1 of 2025 starts on Monday 2024-12-30, a day of 2024: it fires in 2024's period.
    // Week 1 of 2026 starts on Monday 2025-12-29, a day of 2025, a year the interval skips,
    // and 2026 has no Monday of its own in week 1; so nothing in 2026.
    let mondays = try S.walls("FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1;BYDAY=MO", "2024-01-01T09:00", zone: "Europe/Berlin", count: 6)
    #expect(mondays == Self.at9(["2024-01-01", "2024-12-30", "2028-01-03", "2030-12-30", "2034-01-02", "2036-12-29"]))
    // From 2025 the periods are 2025, 2027, 2029: the Monday of week 1 of 2026 is in 2025.
    let fromOddYear = try S.walls("FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1;BYDAY=MO", "2025-03-01T09:00", zone: "Europe/Berlin", count: 5)
    #expect(fromOddYear == Self.at9(["2025-12-29", "2027-01-04", "2029-01-01", "2029-12-31", "2031-12-29"]))
    // Without BYDAY: week 1 of 2025's days in 2024 (30, 31 December), then week 1 of 2026's
    // days in 2026 (1 to 4 January), then all of week 1 of 2028.
    let days = try S.walls("FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1", "2024-06-01T09:00", zone: "Europe/Berlin", count: 13)
    #expect(days == Self.at9([
      "2024-12-30", "2024-12-31", "2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04",
      "2028-01-03", "2028-01-04", "2028-01-05", "2028-01-06", "2028-01-07", "2028-01-08", "2028-01-09",
    ]))
  }
}
