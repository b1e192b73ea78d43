import ChimeServer

extension LoopTimer: GRPCTimer {
  func armOnce(afterMillis millis: UInt64) { arm(afterMillis: millis) }
}
