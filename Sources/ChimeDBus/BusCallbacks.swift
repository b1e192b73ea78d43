internal import CSystemd

/// A Swift closure behind the `void *userdata` of an sd-bus callback (`BusConnection`'s calls and
/// matches).
final class BusCallbackBox {
  let body: (OpaquePointer) -> Void
  init(_ body: @escaping (OpaquePointer) -> Void) { self.body = body }
}

// C callbacks are made in nonisolated functions: a closure written in top-level code would be
// main-actor isolated, and Swift's runtime check traps when sd-bus calls it on the loop thread.

/// For a method call's reply: runs the box once and releases it.
func busReplyHandler() -> sd_bus_message_handler_t {
  return { message, userdata, _ in
    guard let userdata else { return 0 }
    let box = Unmanaged<BusCallbackBox>.fromOpaque(userdata).takeRetainedValue()
    if let message { box.body(message) }
    return 1
  }
}

/// For a signal match: runs the box each time; its owner releases it with the match.
func busSignalHandler() -> sd_bus_message_handler_t {
  return { message, userdata, _ in
    guard let userdata, let message else { return 0 }
    Unmanaged<BusCallbackBox>.fromOpaque(userdata).takeUnretainedValue().body(message)
    return 0
  }
}
