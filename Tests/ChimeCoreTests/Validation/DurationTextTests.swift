import ChimeCore
import Testing

@Suite struct DurationTextTests {
  @Test(arguments: [("10s", 10.0), ("90s", 90), ("2h", 7200), ("1h30m", 5400), ("1d", 86400), ("1.5h", 5400),
                    ("250ms", 0.25), ("45", 45), ("10 s", nil), ("", nil), ("abc", nil), ("5x", nil), ("3h2", nil)] as [(String, Double?)])
  func parses(_ text: String, _ seconds: Double?) {
    #expect(DurationText.parse(text) == seconds)
  }

  @Test func formats() {
    #expect(DurationText.format(45) == "45s")
    #expect(DurationText.format(545) == "9m 5s")
    #expect(DurationText.format(7380) == "2h 3m")
    #expect(DurationText.format(3 * 86400 + 4 * 3600) == "3d 4h")
    let t = Instant(unixMillis: 1_000_000)
    #expect(DurationText.relative(t.adding(seconds: 9), from: t) == "in 9s")
    #expect(DurationText.relative(t.adding(seconds: -180), from: t) == "3m ago")
    #expect(DurationText.relative(t, from: t) == "now")
  }
}
