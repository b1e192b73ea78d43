import ChimeCore

/// One connection on the bus that called chimed, by its unique name (`:1.42`): who it is and
/// which app it acts as. Loop thread only.
final class DBusPeer {
  enum State {
    /// Its credentials are being read; its calls wait here, in order.
    case identifying([DBusRequest])
    /// Identified: a sandboxed peer's app, or nil for a host process.
    case ready(confined: String?)
    /// Not served (another user, a sandbox that names no app): every call gets this.
    case refused(ChimeError)
  }

  let name: String
  var state: State = .identifying([])
  /// The app it acts as: the one it registered, or its sandbox's.
  var app: String?
  /// Its calls taken and not yet answered (at most `maxCallsPerConnection`, as on the socket).
  var inFlight = 0

  init(name: String) { self.name = name }
}

/// A method call waiting for its answer: the message (referenced until the reply is sent) and
/// its arguments, already read.
struct DBusRequest {
  let message: OpaquePointer
  /// The caller's unique name.
  let sender: String
  let member: String
  let arguments: [BusValue]

  func string(_ index: Int) -> String {
    guard index < arguments.count, case .string(let s, _) = arguments[index] else { return "" }
    return s
  }

  func value(_ index: Int) -> BusValue {
    index < arguments.count ? arguments[index] : .array(element: "{sv}", [])
  }
}
