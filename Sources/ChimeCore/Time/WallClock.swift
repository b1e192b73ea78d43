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
