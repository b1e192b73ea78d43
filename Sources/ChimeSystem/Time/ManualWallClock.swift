public import ChimeCore

/// A clock that only moves when told to (tests, the in-process daemon). Thread-safe.
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
