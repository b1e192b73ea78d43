import ChimeCore
import Testing

/// One weekday-set syntax for `--calendar weekday=` and `chime dnd schedule --days`: `+` joins
/// days (the form written back), `,` too where it cannot be misread, and a refusal reads the
/// same in both places.
@Suite struct WeekdaySetTextTests {
  @Test(arguments: [("mon+wed", [2, 4]), ("mon,wed", [2, 4]), ("mon-fri", [2, 3, 4, 5, 6]), ("fri-mon", [1, 2, 6, 7]),
                    ("Monday+wed-fri", [2, 4, 5, 6]), ("sat,sun", [1, 7]), ("tues+thurs", [3, 5]), ("all", Array(1...7))])
  func setsAreReadEitherWay(_ text: String, _ days: [Int]) throws {
    #expect(try WeekdaySetText.parse(text) == days)
  }

  @Test func setsAreWrittenWithPlusMondayFirst() {
    #expect(WeekdaySetText.text([2, 4]) == "mon+wed")
    #expect(WeekdaySetText.text([1, 7]) == "sat+sun")
    #expect(WeekdaySetText.text([2, 3, 4, 5, 6]) == "mon-fri")
    #expect(WeekdaySetText.text([1, 2, 6, 7]) == "mon+fri-sun")
  }

  /// The calendar and Do Not Disturb read the same sets, with either separator.
  @Test(arguments: ["mon+wed", "mon,wed", "mon-wed+sat", "sat,sun", "fri-mon"])
  func calendarAndDoNotDisturbAgree(_ text: String) throws {
    let days = try WeekdaySetText.parse(text)
    let calendar = try CalendarSpec.parse("weekday=\(text),hour=9")
    #expect((calendar.weekdays ?? calendar.weekday.map { [$0] }) == days)
    #expect(calendar.hour == 9)
    let dnd = try DoNotDisturbDays.parse(text)
    #expect(dnd.text == WeekdaySetText.text(days))
    #expect(try DoNotDisturbDays.parse(dnd.text) == dnd)
  }

  /// A day that is none is refused with one message, wherever it was given.
  @Test(arguments: ["mon+fry", "mon,fry", "mo", "mon-tue-wed", "mon+"])
  func refusalsReadTheSame(_ text: String) throws {
    let refusal = try #require(throws: WeekdaySetText.Refusal.self) { try WeekdaySetText.parse(text) }
    let calendar = try #require(throws: ChimeError.self) { try CalendarSpec.parse("weekday=\(text)") }
    let dnd = try #require(throws: ChimeError.self) { try DoNotDisturbDays.parse(text) }
    #expect(calendar.message.contains(refusal.message), "\(calendar.message)")
    #expect(dnd.message == refusal.message)
    #expect(refusal.message.contains("mon+wed+fri"), "\(refusal.message)")
  }
}
