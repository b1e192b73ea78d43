/// A one-shot timer the gRPC transport arms for its streams' deadlines: a `LoopTimer` in
/// chimed, a stand-in in the fuzz harness. Loop thread only.
protocol GRPCTimer: AnyObject {
  /// Fires once after `millis` (0: on the next loop iteration), replacing an earlier arm.
  func armOnce(afterMillis millis: UInt64)
  func disarm()
  /// Stops it for good (its owner is going away).
  func close()
}
