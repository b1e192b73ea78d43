import ChimeCore
import Foundation
import Testing

/// BYWEEKNO against Foundation's ISO 8601 calendar, day by day over 30 years: the days of a
/// year that belong to the last week of the year before (1 January 2039 is in week 52 of 2038)
/// and those in week 1 of the next year. python-dateutil gets some of these wrong, so the
/// cross-check stays clear of them and this test holds them.
@Suite struct RecurrenceWeekNumberTests {
  static let weekNumbers = [1, 2, 52, 53, -1, -2, -52, -53]

  @Test("BYWEEKNO matches the ISO 8601 week", arguments: weekNumbers)
  func matchesISOWeeks(_ n: Int) throws {
    var iso = Calendar(identifier: .iso8601)
    iso.timeZone = try #require(TimeZone(identifier: "UTC"))
    let from = try #require(iso.date(from: DateComponents(year: 2030, month: 1, day: 1)))
    let through = try #require(iso.date(from: DateComponents(year: 2059, month: 12, day: 31)))
    // Weeks in an ISO year: the week of its 28 December.
    func weeks(_ year: Int) -> Int {
      iso.component(.weekOfYear, from: iso.date(from: DateComponents(year: year, month: 12, day: 28))!)
    }
    var expected: [String] = []
    var day = from
    while day <= through {
      let c = iso.dateComponents([.year, .month, .day, .weekOfYear, .yearForWeekOfYear], from: day)
      let w = c.weekOfYear!
      if n == w || n == w - weeks(c.yearForWeekOfYear!) - 1 {
        expected.append(String(format: "%04d-%02d-%02dT09:00:00", c.year!, c.month!, c.day!))
      }
      day = iso.date(byAdding: .day, value: 1, to: day)!
    }
    let made = try RecurrenceSupport.walls("FREQ=YEARLY;BYWEEKNO=\(n);UNTIL=20591231T235959", "2030-01-01T09:00", zone: "UTC", count: 2000)
    #expect(made == expected)
    #expect(!made.isEmpty)
  }

  @Test func theFirstDaysOfAYearInTheLastWeekOfTheOneBefore() throws {
    // 2039-01-01 is a Saturday in week 52 of 2038 (a year of 52 weeks).
    let made = try RecurrenceSupport.walls("FREQ=YEARLY;BYWEEKNO=52;BYDAY=SA;BYMONTHDAY=1", "2038-06-01T09:00", zone: "UTC", count: 1)
    #expect(made == ["2039-01-01T09:00:00"])
  }
}
