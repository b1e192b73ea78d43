/// A wall-clock instant with millisecond resolution, as stored and sent on the wire.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var unixMillis: Int64

  public init(unixMillis: Int64) { self.unixMillis = unixMillis }

  public init(unixSeconds: Double) {
    self.unixMillis = Int64((unixSeconds * 1000).rounded())
  }

  public var unixSeconds: Double { Double(unixMillis) / 1000 }

  public static func < (a: Instant, b: Instant) -> Bool { a.unixMillis < b.unixMillis }

  /// The instant `seconds` later (rounded to the millisecond).
  public func adding(seconds: Double) -> Instant {
    // Saturating: a span past Int64 milliseconds (or NaN) must not trap.
    let millis = (seconds * 1000).rounded()
    let clamped: Int64 = millis.isNaN ? 0 : millis >= 9.2e18 ? Int64.max / 4 : millis <= -9.2e18 ? Int64.min / 4 : Int64(millis)
    return Instant(unixMillis: unixMillis &+ clamped)
  }

  public func adding(millis: Int64) -> Instant { Instant(unixMillis: unixMillis &+ millis) }

  /// Milliseconds from `other` to `self` (positive when `self` is later).
  public func millis(since other: Instant) -> Int64 { unixMillis &- other.unixMillis }

  public static let distantFuture = Instant(unixMillis: Int64.max / 4)
  public static let distantPast = Instant(unixMillis: Int64.min / 4)

  /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-22T05:32:23.000Z`.
  public var description: String {
    let seconds = CivilDate.floorDiv(unixMillis, 1000)
    let millis = Int(unixMillis - seconds * 1000)
    let day = CivilDate.floorDiv(seconds, CivilDate.secondsPerDay)
    let secondOfDay = Int(seconds - day * CivilDate.secondsPerDay)
    let fraction = String(millis)
    return WallTimeFormat.date(Int(day)) + "T" + WallTimeFormat.time(secondOfDay, alwaysSeconds: true)
      + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
  }
}
