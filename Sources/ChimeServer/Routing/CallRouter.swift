package import ChimeCore
package import ChimeWire
import Logging

/// Turns calls into service requests: checks the app id and deadline, then runs the method
/// through its typed route (`Routes`, generated from Protos/) on the handlers (`ServiceCalls`).
/// The one place where calls of every transport meet the service. Loop thread only.
package final class CallRouter {
  private let clock: any WallClock
  private let logger: Logger
  private let target: any CallHandling
  private let handlers: [Method: RouteTable.Handler]
  /// Set when the daemon is shutting down: new calls are refused with UNAVAILABLE.
  var draining = false

  init(service: NotificationService, server: ServerInfo, clock: any WallClock, logger: Logger) {
    self.clock = clock
    self.logger = logger
    target = ServiceCalls(service: service, server: server, clock: clock)
    handlers = RouteTable(routing: target).handlers
  }

  func start(_ call: any ServerCall, header: CallHeader, payload: [UInt8]) {
    do throws(ChimeError) {
      try admit(call, header: header)
      // Every method is routed (`RouteTable(routing:)` is generated from the same list as
      // `Method`), so the lookup cannot miss.
      try handlers[call.method].unsafelyUnwrapped(call, payload)
    } catch {
      call.finish(.failure(error))
    }
  }

  /// Runs a unary call whose request the transport decoded itself (D-Bus): the same checks,
  /// handler and errors as `start`, with ChimeCore values in and out instead of bytes.
  /// `call.method` must be the route's.
  package func call<Request, Response>(_ route: UnaryRoute<Request, Response>, _ call: any ServerCall, header: CallHeader,
                               request: Request, reply: @escaping (Result<Response, ChimeError>) -> Void) {
    precondition(call.method == route.descriptor.method, "the call is not a \(route.descriptor.method.rawValue) call")
    do throws(ChimeError) {
      try admit(call, header: header)
      try route.run(target, call, request, reply)
    } catch {
      reply(.failure(error))
    }
  }

  /// Opens a server stream whose request the transport decoded itself: `send` gets each
  /// message as a ChimeCore value (false: the transport no longer wants them). Ending it is
  /// the call's `onCancel`.
  ///
  /// - Throws: what `start` would have finished the call with (the checks, TOO_MANY_SUBSCRIBERS, ...).
  package func stream<Request, Message>(_ route: StreamRoute<Request, Message>, _ call: any ServerCall, header: CallHeader,
                                request: Request, send: @escaping (Message) -> Bool) throws(ChimeError) {
    precondition(call.method == route.descriptor.method, "the call is not a \(route.descriptor.method.rawValue) call")
    try admit(call, header: header)
    try route.run(target, call, request, send)
  }

  /// What every call passes before its method runs, whatever its transport: the daemon is
  /// serving, the app id is valid, not Chime's own and the caller's to use, the deadline is ahead
  /// (and handed to the call).
  private func admit(_ call: any ServerCall, header: CallHeader) throws(ChimeError) {
    guard !draining else { throw ChimeError(.shuttingDown, "chimed is shutting down") }
    try AppID.validate(header.appID)
    try PeerSandbox.check(declared: header.appID, confinedTo: call.confinedApp)
    // Chime's own app posts the "Allow notifications?" prompts: a client acting as it could
    // answer them.
    try AuthorizationPrompt.checkCaller(declared: header.appID)
    if let deadline = header.deadline, deadline <= clock.now() {
      throw ChimeError(.deadlineExceeded, "the call's deadline passed before it started")
    }
    call.deadline = header.deadline
  }
}
