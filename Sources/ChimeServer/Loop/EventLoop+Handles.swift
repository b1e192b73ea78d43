internal import CLibUV

extension EventLoop {
  /// What keeps the loop running: each handle not yet closed (its libuv type; whether it is
  /// active, closing, or unreferenced; a timer's time left), then how many work requests are in
  /// flight. For a daemon that does not stop when asked: its tests print this. Loop thread only.
  func openHandles() -> [String] {
    assertInLoop()
    let box = HandleList()
    uv_walk(raw, { handle, argument in
      guard let handle, let argument else { return }
      let type = uv_handle_get_type(handle)
      var line = String(cString: uv_handle_type_name(type))
      if uv_is_active(handle) != 0 { line += " active" }
      if uv_is_closing(handle) != 0 { line += " closing" }
      if uv_has_ref(handle) == 0 { line += " unreferenced" }
      if type == UV_TIMER {
        handle.withMemoryRebound(to: uv_timer_t.self, capacity: 1) { timer in
          line += ", due in \(uv_timer_get_due_in(timer)) ms, repeat \(uv_timer_get_repeat(timer)) ms"
        }
      }
      Unmanaged<HandleList>.fromOpaque(argument).takeUnretainedValue().lines.append(line)
    }, Unmanaged.passUnretained(box).toOpaque())
    box.lines.append("\(raw.pointee.active_reqs.count) requests in flight")
    return box.lines
  }
}

private final class HandleList {
  var lines: [String] = []
}
