import ChimeCore
import Foundation
import Testing

/// Reading RRULE text: what is accepted, and what is refused with INVALID_RECURRENCE_RULE
/// naming the part.
@Suite struct RecurrenceRuleParseTests {
  @Test func readsEveryPart() throws {
    let rule = try RecurrenceRule.parse(
      "rrule:freq=yearly;interval=2;count=5;bymonth=3,1;byyearday=-1,100;bymonthday=1,-2;byday=MO,+2tu;byhour=9;byminute=0,30;bysecond=15;bysetpos=-1;wkst=su")
    #expect(rule.frequency == .yearly)
    #expect(rule.interval == 2)
    #expect(rule.end == .count(5))
    #expect(rule.byMonth == [3, 1])
    #expect(rule.byYearDay == [-1, 100] && rule.byMonthDay == [1, -2])
    #expect(rule.byDay == [.init(.monday), .init(.tuesday, ordinal: 2)])
    #expect(rule.byHour == [9] && rule.byMinute == [0, 30] && rule.bySecond == [15])
    #expect(rule.bySetPos == [-1])
    #expect(rule.weekStart == .sunday)
    #expect(rule.text == "FREQ=YEARLY;INTERVAL=2;COUNT=5;BYMONTH=3,1;BYYEARDAY=-1,100;BYMONTHDAY=1,-2;BYDAY=MO,2TU;BYHOUR=9;BYMINUTE=0,30;BYSECOND=15;BYSETPOS=-1;WKST=SU")
  }

  @Test func readsUntilInUTCAndLocal() throws {
    let utc = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20271231T230000Z")
    #expect(utc.end == .untilInstant(Instant(unixMillis: 1_830_294_000_000)))
    #expect(try RecurrenceRule.parse("FREQ=YEARLY;BYWEEKNO=-1,20;BYDAY=MO").byWeekNo == [-1, 20])
    let local = try RecurrenceRule.parse("FREQ=DAILY;UNTIL=20271231T230000")
    #expect(local.end == .untilLocal(LocalDateTime(year: 2027, month: 12, day: 31, hour: 23)!))
    #expect(local.text == "FREQ=DAILY;UNTIL=20271231T230000")
    #expect(try RecurrenceRule.parse(utc.text) == utc)
  }

  struct Refusal: Sendable, CustomStringConvertible {
    var rule: String
    /// Text the message must hold.
    var names: String
    var description: String { rule }
  }

  static let refusals: [Refusal] = [
    Refusal(rule: "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", names: "BYSETPOS=0"),
    Refusal(rule: "FREQ=DAILY;COUNT=3;UNTIL=20271231T000000Z", names: "COUNT with UNTIL"),
    Refusal(rule: "FREQ=DAILY;X-NAME=1", names: "unknown part X-NAME=1"),
    Refusal(rule: "FREQ=DAILY;BYEASTER=0", names: "unknown part BYEASTER=0"),
    Refusal(rule: "FREQ=HOURLY;INTERVAL=2", names: "interval trigger"),
    Refusal(rule: "FREQ=MINUTELY", names: "FREQ=MINUTELY is not supported"),
    Refusal(rule: "FREQ=SECONDLY", names: "FREQ=SECONDLY is not supported"),
    Refusal(rule: "FREQ=FORTNIGHTLY", names: "FREQ=FORTNIGHTLY is not a frequency"),
    Refusal(rule: "INTERVAL=2", names: "FREQ is missing"),
    Refusal(rule: "", names: "empty"),
    Refusal(rule: "FREQ=DAILY;FREQ=WEEKLY", names: "FREQ is given twice"),
    Refusal(rule: "FREQ=DAILY;INTERVAL=0", names: "INTERVAL=0"),
    Refusal(rule: "FREQ=DAILY;INTERVAL=two", names: "INTERVAL=two"),
    Refusal(rule: "FREQ=DAILY;COUNT=0", names: "COUNT=0"),
    Refusal(rule: "FREQ=YEARLY;BYMONTH=13", names: "BYMONTH=13"),
    Refusal(rule: "FREQ=MONTHLY;BYMONTHDAY=32", names: "BYMONTHDAY=32"),
    Refusal(rule: "FREQ=MONTHLY;BYMONTHDAY=0", names: "BYMONTHDAY=0"),
    Refusal(rule: "FREQ=YEARLY;BYYEARDAY=367", names: "BYYEARDAY=367"),
    Refusal(rule: "FREQ=YEARLY;BYWEEKNO=54", names: "BYWEEKNO=54"),
    Refusal(rule: "FREQ=DAILY;BYHOUR=24", names: "BYHOUR=24"),
    Refusal(rule: "FREQ=DAILY;BYMINUTE=60", names: "BYMINUTE=60"),
    Refusal(rule: "FREQ=DAILY;BYSECOND=60", names: "leap seconds"),
    Refusal(rule: "FREQ=MONTHLY;BYDAY=XX", names: "\"XX\" is not a weekday"),
    Refusal(rule: "FREQ=MONTHLY;BYDAY=0MO", names: "BYDAY=0MO"),
    Refusal(rule: "FREQ=YEARLY;BYDAY=54MO", names: "BYDAY=54MO"),
    Refusal(rule: "FREQ=MONTHLY;BYDAY=MO,,TU", names: "not a weekday"),
    Refusal(rule: "FREQ=WEEKLY;BYDAY=2TU", names: "BYDAY=2TU with FREQ=WEEKLY"),
    Refusal(rule: "FREQ=DAILY;BYDAY=-1FR", names: "BYDAY=-1FR with FREQ=DAILY"),
    Refusal(rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO", names: "BYDAY=1MO with BYWEEKNO"),
    Refusal(rule: "FREQ=MONTHLY;BYWEEKNO=20", names: "BYWEEKNO with FREQ=MONTHLY"),
    Refusal(rule: "FREQ=MONTHLY;BYYEARDAY=100", names: "BYYEARDAY with FREQ=MONTHLY"),
    Refusal(rule: "FREQ=WEEKLY;BYMONTHDAY=1", names: "BYMONTHDAY with FREQ=WEEKLY"),
    Refusal(rule: "FREQ=MONTHLY;BYSETPOS=1", names: "BYSETPOS alone"),
    Refusal(rule: "FREQ=DAILY;UNTIL=20271231", names: "UNTIL=20271231 is a date"),
    Refusal(rule: "FREQ=DAILY;UNTIL=2027-12-31T00:00:00Z", names: "UNTIL=2027-12-31T00:00:00Z is not a date-time"),
    Refusal(rule: "FREQ=DAILY;UNTIL=20270230T000000Z", names: "is not a date-time"),
    Refusal(rule: "FREQ=DAILY;WKST=XY", names: "WKST=XY"),
    Refusal(rule: "FREQ=DAILY;;COUNT=2", names: "empty part"),
    Refusal(rule: "FREQ=DAILY;COUNT", names: "COUNT is not NAME=VALUE"),
    Refusal(rule: "FREQ=DAILY;COUNT=", names: "COUNT= has no value"),
  ]

  @Test("refused with INVALID_RECURRENCE_RULE naming the part", arguments: refusals)
  func refused(_ r: Refusal) {
    let error = RecurrenceSupport.error { () throws(ChimeError) in try RecurrenceRule.parse(r.rule, field: "request.trigger.recurrence.rule") }
    #expect(error?.reason == "INVALID_RECURRENCE_RULE")
    #expect(error?.code == .invalidArgument)
    #expect(error?.field == "request.trigger.recurrence.rule")
    #expect(error?.message.contains(r.names) == true, "\(error?.message ?? "accepted")")
  }

  @Test func startsAndExclusionsAreLocalWallTimes() throws {
    let r = try Recurrence(rule: "FREQ=DAILY", start: "2026-12-01T17:00", timeZone: "Europe/Berlin",
                           exclusions: ["2026-12-31T17:00:00", "20270101T170000"])
    #expect(r.start.description == "2026-12-01T17:00:00")
    #expect(r.exclusions.map(\.description) == ["2026-12-31T17:00:00", "2027-01-01T17:00:00"])
    #expect(r.ruleText == "FREQ=DAILY")
    for bad in ["2026-12-01T17:00Z", "2026-12-01T17:00+01:00", "2026-02-30T17:00", "2026-12-01", "tomorrow"] {
      let error = RecurrenceSupport.error { () throws(ChimeError) in try Recurrence(rule: "FREQ=DAILY", start: bad, timeZone: nil) }
      #expect(error?.reason == "INVALID_RECURRENCE_RULE" && error?.field == "recurrence.start", "\(bad)")
    }
    let error = RecurrenceSupport.error { () throws(ChimeError) in
      try Recurrence(rule: "FREQ=DAILY", start: "2026-12-01T17:00", timeZone: nil, exclusions: ["2026-12-31"])
    }
    #expect(error?.field == "recurrence.exclusions")
  }
}
