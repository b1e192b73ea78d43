import ChimeCore
import Testing

/// The one grammar of durations typed on the command line: a unit is always required (a bare
/// number is refused with the two likely readings), zero only where it means something, and a
/// refusal names the bound crossed.
@Suite struct DurationInputTests {
  static let any = DurationInput.Bounds(noun: "interval")

  @Test(arguments: [("90s", 90.0), ("10m", 600), ("1h30m", 5400), ("1d", 86400), ("2w", 1_209_600), ("250ms", 0.25), (" 2h ", 7200)])
  func durationsWithUnitsAreRead(_ text: String, _ seconds: Double) throws {
    #expect(try DurationInput.parse(text, Self.any) == seconds)
  }

  @Test(arguments: ["10", "90", "1.5", "0"])
  func aBareNumberIsRefusedWithBothReadings(_ text: String) throws {
    let refusal = try #require(throws: DurationInput.Refusal.self) { try DurationInput.parse(text, Self.any) }
    #expect(refusal.message == "\(text) needs a unit: say \(text)s or \(text)m")
  }

  @Test func zeroIsReadOnlyWhereItMeansSomething() throws {
    let timeout = DurationInput.Bounds(noun: "timeout", allowsZero: true)
    #expect(try DurationInput.parse("0", timeout) == 0)
    #expect(try DurationInput.parse("0s", timeout) == 0)
    #expect(throws: DurationInput.Refusal.self) { try DurationInput.parse("5", timeout) }
    let refusal = try #require(throws: DurationInput.Refusal.self) { try DurationInput.parse("0s", Self.any) }
    #expect(refusal.message.contains("no time at all"), "\(refusal.message)")
  }

  @Test(arguments: [("8d", "8d is longer than the longest snooze, 1 week"),
                    ("2w", "2w is longer than the longest snooze, 1 week"),
                    ("59s", "59s is shorter than the shortest snooze, 1 minute"),
                    ("90.5s", "90.5s is not a whole number of seconds: a snooze is counted in whole seconds"),
                    ("-5m", "-5m is negative: give a positive duration, how long from now (5m)"),
                    ("soon", "\"soon\" is not a duration: write e.g. 90s, 10m, 2h, 1h30m or 1d")])
  func refusalsNameWhatWasWrong(_ text: String, _ message: String) throws {
    let refusal = try #require(throws: DurationInput.Refusal.self) { try DurationInput.parse(text, .snooze) }
    #expect(refusal.message == message)
  }

  @Test func boundsAreInclusive() throws {
    #expect(try DurationInput.parse("1m", .snooze) == 60)
    #expect(try DurationInput.parse("1w", .snooze) == 604_800)
    #expect(try DurationInput.parse("7d", .snooze) == 604_800)
  }

  @Test(arguments: [(604_800.0, "1 week"), (60, "1 minute"), (1800, "30 minutes"), (5, "5 seconds"), (90, "90 seconds"), (86400, "1 day")])
  func boundsAreSpokenInTheirLargestWholeUnit(_ seconds: Double, _ text: String) {
    #expect(DurationInput.spoken(seconds) == text)
  }
}
