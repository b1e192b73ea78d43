internal import CLibUV
import Glibc

/// Watches a POSIX signal on the loop (SIGTERM, SIGINT). Loop thread only.
final class SignalWatcher {
  /// The signals that stop the daemon gracefully, with their names.
  static let stopSignals: [(number: Int32, name: String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")]

  private let handle: UnsafeMutablePointer<uv_signal_t>
  private let action: (Int32) -> Void
  private var isClosed = false

  init(loop: EventLoop, signal: Int32, action: @escaping (Int32) -> Void) {
    self.action = action
    handle = .allocate(capacity: 1)
    uv_signal_init(loop.raw, handle)
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    uv_signal_start(handle, signalCallback(), signal)
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_signal_stop(handle)
    handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, signalCloseCallback()) }
  }

  fileprivate func fire(_ signum: Int32) { action(signum) }
}

private func signalCallback() -> uv_signal_cb {
  return { handle, signum in
    guard let data = handle?.pointee.data else { return }
    Unmanaged<SignalWatcher>.fromOpaque(data).takeUnretainedValue().fire(signum)
  }
}

private func signalCloseCallback() -> uv_close_cb {
  return { handle in
    guard let handle else { return }
    if let data = handle.pointee.data { Unmanaged<SignalWatcher>.fromOpaque(data).release() }
    handle.withMemoryRebound(to: uv_signal_t.self, capacity: 1) { $0.deallocate() }
  }
}
