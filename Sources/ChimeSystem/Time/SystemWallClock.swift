public import ChimeCore
import FoundationEssentials

/// The machine's real-time clock: what production reads "now" from.
public struct SystemWallClock: WallClock {
  public init() {}
  public func now() -> Instant { Instant(Date()) }
  public func nowMicros() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)) }
}

/// The system clock shifted by a fixed offset. `chimed --clock-offset` uses it so end-to-end
/// tests can start the real daemon "later" (e.g. after a long downtime) without sleeping.
public struct OffsetWallClock: WallClock {
  public let offsetMillis: Int64
  public init(offsetMillis: Int64) { self.offsetMillis = offsetMillis }
  public func now() -> Instant { Instant(Date()).adding(millis: offsetMillis) }
  public func nowMicros() -> Int64 { SystemWallClock().nowMicros() &+ offsetMillis &* 1000 }
}
