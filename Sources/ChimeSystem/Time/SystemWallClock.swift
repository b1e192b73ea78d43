public import ChimeCore
import Glibc

/// The machine's real-time clock (`CLOCK_REALTIME`): what production reads "now" from.
public struct SystemWallClock: WallClock {
  public init() {}
  /// Now to the nearest millisecond.
  public func now() -> Instant {
    let (seconds, nanos) = Self.realtime()
    return Instant(unixMillis: seconds &* 1000 &+ (nanos + 500_000) / 1_000_000)
  }
  /// Now in whole microseconds (truncated).
  public func nowMicros() -> Int64 {
    let (seconds, nanos) = Self.realtime()
    return seconds &* 1_000_000 &+ nanos / 1000
  }

  /// Seconds and nanoseconds since the Unix epoch.
  static func realtime() -> (seconds: Int64, nanos: Int64) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return (Int64(now.tv_sec), Int64(now.tv_nsec))
  }
}

/// The system clock shifted by a fixed offset. `chimed --clock-offset` uses it so end-to-end
/// tests can start the real daemon "later" (e.g. after a long downtime) without sleeping.
public struct OffsetWallClock: WallClock {
  public let offsetMillis: Int64
  public init(offsetMillis: Int64) { self.offsetMillis = offsetMillis }
  public func now() -> Instant { SystemWallClock().now().adding(millis: offsetMillis) }
  public func nowMicros() -> Int64 { SystemWallClock().nowMicros() &+ offsetMillis &* 1000 }
}
