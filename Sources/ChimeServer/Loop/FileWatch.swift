internal import CLibUV

/// One libuv fs-event handle (inotify on Linux) watching a directory: `action` gets the name of
/// each entry that was created, changed, renamed into or out of it, or removed (nil when libuv
/// could not say which). Loop thread only. `close()` before dropping it.
final class FileWatch {
  private let handle: UnsafeMutablePointer<uv_fs_event_t>
  private let action: (String?) -> Void
  private var isClosed = false

  /// Starts watching `path`.
  ///
  /// - Throws: `ChimeLoopError` when libuv cannot watch it (it does not exist, or inotify's
  ///   watch limit is reached).
  init(loop: EventLoop, path: String, action: @escaping (String?) -> Void) throws(ChimeLoopError) {
    loop.assertInLoop()
    self.action = action
    handle = .allocate(capacity: 1)
    var rc = uv_fs_event_init(loop.raw, handle)
    guard rc == 0 else {
      handle.deallocate()
      throw ChimeLoopError("uv_fs_event_init", rc)
    }
    handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    rc = uv_fs_event_start(handle, fileWatchCallback(), path, 0)
    guard rc == 0 else {
      close()
      throw ChimeLoopError("uv_fs_event_start", rc)
    }
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_fs_event_stop(handle)
    handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, fileWatchCloseCallback()) }
  }

  fileprivate func fire(name: String?, status: Int32) {
    guard !isClosed else { return }
    action(status < 0 ? nil : name)
  }
}

private func fileWatchCallback() -> uv_fs_event_cb {
  return { event, name, _, status in
    guard let data = event?.pointee.data else { return }
    Unmanaged<FileWatch>.fromOpaque(data).takeUnretainedValue().fire(name: name.map { String(cString: $0) }, status: status)
  }
}

private func fileWatchCloseCallback() -> uv_close_cb {
  return { handle in
    guard let handle else { return }
    if let data = handle.pointee.data { Unmanaged<FileWatch>.fromOpaque(data).release() }
    handle.withMemoryRebound(to: uv_fs_event_t.self, capacity: 1) { $0.deallocate() }
  }
}
