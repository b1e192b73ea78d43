@testable import ChimeCore
import ChimeZoneFiles
import ChimeTestSupport
import Foundation
import Testing

/// Instants printed and read without Foundation agree with Foundation's ISO 8601.
@Suite struct InstantTextFormTests {
  /// The UTC calendar fields from Foundation's Gregorian calendar, the milliseconds from the
  /// integer (a `Date`'s Double would drop one now and then: `.123` printed as `.122`).
  static func foundation(_ instant: Instant) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let seconds = Int64((Double(instant.unixMillis) / 1000).rounded(.down))
    let millis = instant.unixMillis - seconds * 1000
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
    func pad(_ n: Int?, _ width: Int) -> String {
      let text = String(n ?? -1)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))."
      + pad(Int(millis), 3) + "Z"
  }

  @Test func descriptionIsISO8601InUTCWithMilliseconds() {
    var generator = SplitMix64(seed: 8601)
    // 1900 to 2200, plus the edges of days, years and the epoch.
    var instants: [Instant] = [0, -1, 1, 999, 1000, -999, -1000, -1001, 86_399_999, 86_400_000, 951_782_400_000,
                               1_795_509_000_123, 4_102_444_799_999, -2_208_988_800_000].map(Instant.init(unixMillis:))
    for _ in 0..<5000 { instants.append(Instant(unixMillis: Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator))) }
    for instant in instants {
      #expect(instant.description == Self.foundation(instant), "\(instant.unixMillis)")
    }
    #expect(Instant(unixMillis: 1_795_509_000_007).description == "2026-11-24T08:30:00.007Z")
  }

  @Test func fractionsOfASecondAreReadToTheMillisecond() throws {
    let utc = Zone.utc
    let cases: [(String, Int64)] = [
      ("2026-11-24T08:30:00.123Z", 1_795_509_000_123), ("2026-11-24T08:30:00,5Z", 1_795_509_000_500),
      ("2026-11-24T08:30:00.0004Z", 1_795_509_000_000), ("2026-11-24T08:30:00.9996Z", 1_795_509_001_000),
      ("1969-12-31T23:59:59.250Z", -750), ("2026-11-24T08:30:00Z", 1_795_509_000_000),
    ]
    for (text, millis) in cases {
      let parsed = try #require(InstantText.parse(text, zone: utc))
      #expect(parsed.instant.unixMillis == millis, "\(text)")
      #expect(parsed.hasFraction == (millis % 1000 != 0 || text.contains(".0004") || text.contains(".9996")))
      // Foundation reads the same instant (to its millisecond).
      let date = try Date(text.replacingOccurrences(of: ",", with: "."), strategy: .iso8601.year().month().day()
        .time(includingFractionalSeconds: text.contains(".") || text.contains(",")))
      #expect(abs(Instant(date).unixMillis - millis) <= 1, "\(text)")
    }
    let before = try #require(InstantText.parse("1969-12-31T23:59:59.250Z", zone: utc))
    #expect(before.unixSeconds == -1 && before.fraction == 0.25)
    // Whole seconds only, fractions dropped: the calendar pattern of the second it falls in.
    let c = CalendarSpec.instant(unixSeconds: before.unixSeconds)
    #expect(c.year == 1969 && c.month == 12 && c.day == 31 && c.hour == 23 && c.minute == 59 && c.second == 59)
  }
}

/// A zone's file is read whole (ChimeZoneFiles), as Foundation's `FileManager.contents(atPath:)` read it.
@Suite struct ZoneFileTests {
  let dir = TemporaryDirectory()

  @Test func readsTheWholeFileAndNothingThatIsNotAFile() throws {
    var generator = SplitMix64(seed: 42)
    for size in [0, 1, 16 << 10, (16 << 10) + 1, 100_000] {
      let bytes = generator.bytes(size)
      let path = dir.file("f\(size)")
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      #expect(ZoneFiles.contents(path) == bytes)
      #expect(ZoneFiles.contents(path).map { Data($0) } == FileManager.default.contents(atPath: path))
    }
    #expect(ZoneFiles.contents(dir.file("missing")) == nil)
    #expect(ZoneFiles.contents(dir.path) == nil)
    #expect(FileManager.default.contents(atPath: dir.path) == nil)
    try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: "f1")
    #expect(ZoneFiles.contents(dir.file("link"))?.count == 1)
  }

  @Test func aZoneTreeIsReadThroughIt() throws {
    let system = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
    try FileManager.default.createDirectory(atPath: dir.file("Europe"), withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: dir.file("Europe/Berlin"), contents: system))
    #expect(FileManager.default.createFile(atPath: dir.file("Europe/Junk"), contents: Data("not tzif".utf8)))
    let tree = ZoneDirectory(root: dir.path)
    let berlin = try tree.load("Europe/Berlin")
    #expect(berlin.secondsFromUTC(at: Instant(unixMillis: 1_795_509_000_000)) == 3600)
    #expect(throws: ZoneDirectory.LookupError.self) { try tree.load("Europe") }
    #expect(throws: ZoneDirectory.LookupError.self) { try tree.load("Europe/Junk") }
    #expect(throws: ZoneDirectory.LookupError.self) { try tree.load("Europe/Paris") }
    #expect(try tree.load("UTC").identifier == "UTC")
  }
}
