import FoundationEssentials

/// Where "now" comes from. Production uses ChimeSystem's `SystemWallClock` (the domain never
/// reads the system clock itself); tests move a `ManualWallClock` by hand and never sleep.
public protocol WallClock: Sendable {
  func now() -> Instant
  /// Now in microseconds since the Unix epoch, for timing finer than `Instant`'s milliseconds
  /// (how punctually the scheduler fires). Defaults to `now()` in whole milliseconds.
  func nowMicros() -> Int64
}

extension WallClock {
  public func nowMicros() -> Int64 { now().unixMillis &* 1000 }
}

/// A clock that only moves when told to. Thread-safe.
public final class ManualWallClock: WallClock {
  private let current: Locked<Instant>

  public init(_ start: Instant = Instant(unixMillis: 1_800_000_000_000)) {
    current = Locked(start)
  }

  public func now() -> Instant { current.withLock { $0 } }

  public func set(_ instant: Instant) { current.withLock { $0 = instant } }

  public func advance(seconds: Double) { current.withLock { $0 = $0.adding(seconds: seconds) } }

  public func advance(millis: Int64) { current.withLock { $0 = $0.adding(millis: millis) } }
}
