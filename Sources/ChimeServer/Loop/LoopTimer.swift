internal import CLibUV

/// One libuv timer. Loop thread only. `close()` before dropping it.
package final class LoopTimer {
  private let handle: UnsafeMutablePointer<uv_timer_t>
  private let action: () -> Void
  private var isClosed = false

  package init(loop: EventLoop, action: @escaping () -> Void) {
    self.action = action
    handle = .allocate(capacity: 1)
    uv_timer_init(loop.raw, handle)
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
  }

  /// Fires once after `millis` (0 = on the next loop iteration), then every `repeatMillis`
  /// when that is not 0, replacing any earlier arm.
  package func arm(afterMillis millis: UInt64, repeatMillis: UInt64 = 0) {
    guard !isClosed else { return }
    uv_timer_start(handle, loopTimerCallback(), millis, repeatMillis)
  }

  package func disarm() {
    guard !isClosed else { return }
    uv_timer_stop(handle)
  }

  package func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_timer_stop(handle)
    handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, loopTimerCloseCallback()) }
  }

  fileprivate func fire() { action() }
}

private func loopTimerCallback() -> uv_timer_cb {
  return { timer in
    guard let data = timer?.pointee.data else { return }
    Unmanaged<LoopTimer>.fromOpaque(data).takeUnretainedValue().fire()
  }
}

private func loopTimerCloseCallback() -> uv_close_cb {
  return { handle in
    guard let handle else { return }
    if let data = handle.pointee.data { Unmanaged<LoopTimer>.fromOpaque(data).release() }
    handle.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { $0.deallocate() }
  }
}
