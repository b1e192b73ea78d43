/// Reads an instant the way people type one: ISO 8601 / RFC 3339 with an offset
/// (`2026-11-24T08:30:00Z`, `2026-11-24T09:30:00+01:00`), or without one
/// (`2026-11-24T09:30:00`, `2026-11-24 09:30`, `2026-11-24`), which is read in `zone` (the local
/// zone on the command line) and says so.
public enum InstantText {
  public struct Parsed: Equatable, Sendable {
    /// The whole second, in seconds since the Unix epoch.
    public var unixSeconds: Int64
    /// The fraction of a second after it, 0 to 1 (digits like `.99999999999999999` read as 1).
    public var fraction: Double
    /// The text had no offset: it was read as a wall time in this zone.
    public var assumedZone: String?
    /// The text had a fraction of a second other than zero.
    public var hasFraction: Bool

    /// The instant to the millisecond.
    public var instant: Instant { Instant(unixMillis: unixSeconds * 1000 + Int64((fraction * 1000).rounded())) }
  }

  /// The instant, or nil when `text` is not a date-time in any of the accepted forms.
  public static func parse(_ text: String, zone: Zone) -> Parsed? {
    let s = text.trimmingWhitespace()
    let utf8 = Array(s.utf8)
    var i = 0
    func digits(_ count: Int) -> Int? {
      guard i + count <= utf8.count else { return nil }
      var value = 0
      for k in 0..<count {
        let b = utf8[i + k]
        guard b >= 0x30 && b <= 0x39 else { return nil }
        value = value * 10 + Int(b - 0x30)
      }
      i += count
      return value
    }
    func take(_ c: Character) -> Bool {
      guard i < utf8.count, utf8[i] == c.asciiValue! else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
    var hour = 0, minute = 0, second = 0
    var fraction = 0.0
    if i < utf8.count {
      guard take("T") || take("t") || take(" ") else { return nil }
      guard let h = digits(2), take(":"), let m = digits(2) else { return nil }
      hour = h
      minute = m
      if take(":") {
        guard let sec = digits(2) else { return nil }
        second = sec
        if take(".") || take(",") {
          let start = i
          while i < utf8.count, utf8[i] >= 0x30 && utf8[i] <= 0x39 { i += 1 }
          guard i > start, let f = Double("0." + String(decoding: utf8[start..<i], as: UTF8.self)) else { return nil }
          fraction = f
        }
      }
    }
    var offset: Int?
    if i < utf8.count {
      if take("Z") || take("z") {
        offset = 0
      } else {
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let oh = digits(2) else { return nil }
        // `+01`, `+0100` or `+01:00`: a colon must be followed by the minutes.
        let om: Int
        if take(":") {
          guard let minutes = digits(2) else { return nil }
          om = minutes
        } else {
          om = digits(2) ?? 0
        }
        guard oh <= 23, om <= 59 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
      }
    }
    guard i == utf8.count else { return nil }
    guard (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 59 else { return nil }

    guard day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
    let wall = Int64(CivilDate.dayNumber(year: year, month: month, day: day)) * CivilDate.secondsPerDay
      + Int64(hour * 3600 + minute * 60 + second)
    // A wall time the zone skipped is no time at all; one it shows twice is its first.
    let seconds: Int64
    if let offset {
      seconds = wall - Int64(offset)
    } else {
      switch zone.table.resolve(wall: wall) {
      case .single(let t), .repeated(let t, _): seconds = t
      case .skipped: return nil
      }
    }
    return Parsed(unixSeconds: seconds, fraction: fraction, assumedZone: offset == nil ? zone.identifier : nil,
                  hasFraction: fraction != 0)
  }
}
