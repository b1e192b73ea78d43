internal import CLibUV

/// One libuv poll handle watching a file descriptor someone else owns (a D-Bus connection's
/// socket). Loop thread only. `close()` before the descriptor is closed and before dropping it.
package final class LoopPoll {
  package struct Events: OptionSet {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }
    package static let readable = Events(rawValue: Int32(UV_READABLE.rawValue))
    package static let writable = Events(rawValue: Int32(UV_WRITABLE.rawValue))
  }

  private let handle: UnsafeMutablePointer<uv_poll_t>
  /// Called with the events seen, or with nil on an error (the descriptor is bad or hung up).
  private let action: (Events?) -> Void
  private var isClosed = false

  package init(loop: EventLoop, fd: Int32, action: @escaping (Events?) -> Void) throws(ChimeLoopError) {
    loop.assertInLoop()
    self.action = action
    handle = .allocate(capacity: 1)
    let rc = uv_poll_init(loop.raw, handle, fd)
    guard rc == 0 else {
      handle.deallocate()
      throw ChimeLoopError("uv_poll_init", rc)
    }
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
  }

  /// Watches for `events` (replacing what was watched); empty stops watching.
  package func watch(_ events: Events) {
    guard !isClosed else { return }
    if events.isEmpty {
      uv_poll_stop(handle)
    } else {
      uv_poll_start(handle, events.rawValue, loopPollCallback())
    }
  }

  package func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_poll_stop(handle)
    handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, loopPollCloseCallback()) }
  }

  fileprivate func fire(status: Int32, events: Int32) {
    guard !isClosed else { return }
    action(status < 0 ? nil : Events(rawValue: events))
  }
}

private func loopPollCallback() -> uv_poll_cb {
  return { poll, status, events in
    guard let data = poll?.pointee.data else { return }
    Unmanaged<LoopPoll>.fromOpaque(data).takeUnretainedValue().fire(status: status, events: events)
  }
}

private func loopPollCloseCallback() -> uv_close_cb {
  return { handle in
    guard let handle else { return }
    if let data = handle.pointee.data { Unmanaged<LoopPoll>.fromOpaque(data).release() }
    handle.withMemoryRebound(to: uv_poll_t.self, capacity: 1) { $0.deallocate() }
  }
}
