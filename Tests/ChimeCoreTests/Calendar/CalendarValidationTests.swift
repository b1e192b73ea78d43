import ChimeCore
import Foundation
import Testing

/// What `RequestValidator` (through `CalendarEngine.validate`) refuses, with which reason and
/// field path.
@Suite struct CalendarValidationTests {
  typealias S = CalendarTestSupport

  func error(_ build: (inout CalendarComponents) -> Void) -> ChimeError? {
    let trigger = S.trigger(build)
    do {
      try RequestValidator.validate(Trigger.calendar(trigger), field: "request.trigger")
      return nil
    } catch {
      return error
    }
  }

  static let outOfRange: [(String, Int)] = [
    ("month", 13), ("month", 0), ("hour", 24), ("hour", -1), ("weekday", 0), ("weekday", 8),
    ("day", 32), ("day", 0), ("minute", 60), ("second", 60), ("weekday_ordinal", 0),
    ("weekday_ordinal", 6), ("weekday_ordinal", -2), ("week_of_month", 0), ("week_of_month", 7),
    ("week_of_year", 0), ("week_of_year", 54), ("year", 0), ("year", 10_000), ("year_for_week_of_year", 0),
  ]

  @Test("a component out of range", arguments: outOfRange)
  func componentOutOfRange(name: String, value: Int) throws {
    let e = try #require(error { c in
      switch name {
      case "month": c.month = value
      case "hour": c.hour = value
      case "weekday": c.weekday = value
      case "day": c.day = value
      case "minute": c.minute = value
      case "second": c.second = value
      case "weekday_ordinal": c.weekday = 2; c.weekdayOrdinal = value
      case "week_of_month": c.weekOfMonth = value
      case "week_of_year": c.weekOfYear = value
      case "year": c.year = value
      default: c.yearForWeekOfYear = value
      }
    })
    #expect(e.code == .invalidArgument)
    #expect(e.reason == "INVALID_DATE_COMPONENT")
    #expect(e.field == "request.trigger.calendar.components.\(name)")
  }

  @Test func unknownTimeZone() throws {
    for name in ["Mars/Olympus", "Europe/Berlinn", String(repeating: "A", count: 300)] {
      let e = try #require(error { $0.hour = 9; $0.timeZone = name })
      #expect(e.code == .invalidArgument)
      #expect(e.reason == "INVALID_TIME_ZONE")
      #expect(e.field == "request.trigger.calendar.components.time_zone")
    }
    #expect(error { $0.hour = 9; $0.timeZone = "Pacific/Chatham" } == nil)
  }

  static let neverMatching: [(String, CalendarComponents)] = [
    ("30 February", S.components { $0.month = 2; $0.day = 30 }),
    ("31 April", S.components { $0.month = 4; $0.day = 31 }),
    ("31 June at 09:00", S.components { $0.month = 6; $0.day = 31; $0.hour = 9 }),
    ("29 February 2027", S.components { $0.year = 2027; $0.month = 2; $0.day = 29 }),
    ("week 53 of 2025", S.components { $0.weekOfYear = 53; $0.yearForWeekOfYear = 2025 }),
    ("week 6 of February", S.components { $0.month = 2; $0.weekOfMonth = 6 }),
    ("5th Monday of February 2027", S.components { $0.year = 2027; $0.month = 2; $0.weekday = 2; $0.weekdayOrdinal = 5 }),
    ("Monday 31 April", S.components { $0.month = 4; $0.day = 31; $0.weekday = 2 }),
    ("day 8 in the first 7 days", S.components { $0.day = 8; $0.weekdayOrdinal = 1 }),
    ("week 1 in June", S.components { $0.weekOfYear = 1; $0.month = 6 }),
    ("no components", CalendarComponents()),
    ("only a zone", S.components { $0.timeZone = "Europe/Berlin" }),
  ]

  @Test("a combination that never matches", arguments: neverMatching)
  func neverMatches(name: String, components: CalendarComponents) throws {
    let e = try #require(error { $0 = components })
    #expect(e.code == .invalidArgument)
    #expect(e.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(e.field == "request.trigger.calendar.components")
  }

  static let valid: [(String, CalendarComponents)] = [
    ("day 31 without a month", S.components { $0.day = 31 }),
    ("29 February", S.components { $0.month = 2; $0.day = 29 }),
    ("5th Friday of February", S.components { $0.month = 2; $0.weekday = 6; $0.weekdayOrdinal = 5 }),
    ("week 53 of 2026", S.components { $0.weekOfYear = 53; $0.yearForWeekOfYear = 2026 }),
    ("week 53", S.components { $0.weekOfYear = 53 }),
    ("last Friday", S.components { $0.weekday = 6; $0.weekdayOrdinal = -1; $0.hour = 17 }),
    ("a past year (no clock in the validator)", S.components { $0.year = 2020; $0.hour = 9 }),
    ("Friday 13th", S.components { $0.day = 13; $0.weekday = 6 }),
    ("week 1 in December", S.components { $0.weekOfYear = 1; $0.month = 12 }),
  ]

  @Test("a combination that can match", arguments: valid)
  func canMatch(name: String, components: CalendarComponents) {
    #expect(error { $0 = components } == nil)
  }

  /// A year in the past is refused once there is a clock: by `validate(now:)` and when the
  /// first fire is planned.
  @Test func pastYear() throws {
    let trigger = S.trigger(zone: "UTC", repeats: false) { $0.year = 2020; $0.month = 5; $0.hour = 9 }
    let now = S.instant("2026-05-01T00:00:00Z")
    let e1 = #expect(throws: ChimeError.self) { try CalendarEngine.validate(trigger, field: "request.trigger.calendar", now: now) }
    #expect(e1?.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(e1?.field == "request.trigger.calendar.components")
    let e2 = #expect(throws: ChimeError.self) { _ = try TriggerPlanner.firstFire(of: .calendar(trigger), added: now) }
    #expect(e2?.reason == "NOTIFICATION_INVALID_NO_DATE")
    #expect(e2?.field == "request.trigger.calendar.components")
    // The same year ahead of the clock is fine.
    try CalendarEngine.validate(trigger, field: "request.trigger.calendar", now: S.instant("2019-05-01T00:00:00Z"))
  }

  @Test func wholeRequest() throws {
    var content = NotificationContent()
    content.title = "Standup"
    let bad = NotificationRequest(identifier: "r1", content: content, trigger: .calendar(S.trigger { $0.month = 13 }))
    let e = #expect(throws: ChimeError.self) { try RequestValidator.validate(bad) }
    #expect(e?.field == "request.trigger.calendar.components.month")
    let good = NotificationRequest(identifier: "r1", content: content, trigger: .calendar(S.trigger(zone: "Europe/Berlin") { $0.weekday = 2; $0.hour = 9; $0.minute = 30 }))
    try RequestValidator.validate(good)
  }
}
