/// A wall-clock date and time with no zone (RFC 5545's "date with local time"): the start of a
/// recurrence and its exclusions are given this way and read in the recurrence's zone.
///
/// Years 1...9999, whole seconds. Ordered as the wall clock reads.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  /// nil when a field is out of range or the day does not exist (30 February).
  public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    guard (1...9999).contains(year), (1...12).contains(month),
          (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
          (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Reads `2026-12-01T17:00`, `2026-12-01T17:00:30`, `2026-12-01 17:00` (ISO 8601, as the CLI
  /// takes it) or `20261201T170000` (RFC 5545's DATE-TIME form). No offset and no `Z`: the
  /// wall time is read in the recurrence's zone.
  public init?(parsing text: String) {
    let b = Array(text.utf8)
    var i = 0
    func digits(_ count: Int) -> Int? {
      guard i + count <= b.count else { return nil }
      var value = 0
      for k in 0..<count {
        guard b[i + k] >= 0x30 && b[i + k] <= 0x39 else { return nil }
        value = value * 10 + Int(b[i + k] - 0x30)
      }
      i += count
      return value
    }
    func take(_ c: UInt8) -> Bool {
      guard i < b.count, b[i] == c else { return false }
      i += 1
      return true
    }
    let compact = !b.contains(UInt8(ascii: "-"))
    guard let year = digits(4) else { return nil }
    guard compact || take(UInt8(ascii: "-")), let month = digits(2) else { return nil }
    guard compact || take(UInt8(ascii: "-")), let day = digits(2) else { return nil }
    guard take(UInt8(ascii: "T")) || (!compact && take(UInt8(ascii: " "))), let hour = digits(2) else { return nil }
    guard compact || take(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
    var second = 0
    if compact {
      guard let s = digits(2) else { return nil }
      second = s
    } else if take(UInt8(ascii: ":")) {
      guard let s = digits(2) else { return nil }
      second = s
    }
    guard i == b.count else { return nil }
    self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// Local seconds since 1970-01-01T00:00 on the same wall clock.
  var wallSeconds: Int64 {
    Int64(CivilDate.dayNumber(year: year, month: month, day: day)) * CivilDate.secondsPerDay
      + Int64(hour * 3600 + minute * 60 + second)
  }

  var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }
  var secondOfDay: Int { hour * 3600 + minute * 60 + second }

  init(wallSeconds: Int64) {
    let day = Int(CivilDate.floorDiv(wallSeconds, CivilDate.secondsPerDay))
    let s = Int(wallSeconds - Int64(day) * CivilDate.secondsPerDay)
    let (y, m, d) = CivilDate.civil(day)
    year = y
    month = m
    self.day = d
    hour = s / 3600
    minute = s / 60 % 60
    second = s % 60
  }

  public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.wallSeconds < b.wallSeconds }

  /// `2026-12-01T17:00:00`.
  public var description: String {
    WallTimeFormat.date(dayNumber) + "T" + WallTimeFormat.time(secondOfDay, alwaysSeconds: true)
  }
}
