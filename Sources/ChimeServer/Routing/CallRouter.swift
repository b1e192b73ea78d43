import ChimeCore
import ChimeWire
import Logging

/// Turns calls into service requests: checks the app id and deadline, decodes the payload,
/// runs the method and encodes its answer, each method through its descriptor in the call
/// table (`CallTable`). The one place where wire messages meet the service. Loop thread only.
final class CallRouter {
  private let clock: any WallClock
  private let logger: Logger
  private let handlers: [Method: RouteTable.Handler]
  private let bodies: [Method: Any]
  /// Set when the daemon is shutting down: new calls are refused with UNAVAILABLE.
  var draining = false

  init(service: NotificationService, server: ServerInfo, clock: any WallClock, logger: Logger) {
    self.clock = clock
    self.logger = logger
    let table = Self.routes(service: service, server: server, clock: clock)
    handlers = table.handlers
    bodies = table.bodies
    precondition(Set(handlers.keys) == Set(Method.allCases), "every method must be routed")
  }

  func start(_ call: any ServerCall, header: CallHeader, payload: [UInt8]) {
    do throws(ChimeError) {
      try admit(call, header: header)
      // Every method is routed (checked in init), so the lookup cannot miss.
      try handlers[call.method].unsafelyUnwrapped(call, payload)
    } catch {
      call.finish(.failure(error))
    }
  }

  /// Runs a unary call whose request the transport decoded itself (D-Bus): the same checks,
  /// service call and errors as `start`, with ChimeCore values in and out instead of bytes.
  /// `call.method` must be the descriptor's.
  func call<Request, Response>(_ descriptor: CallDescriptor<Request, Response>, _ call: any ServerCall, header: CallHeader,
                               request: Request, reply: @escaping (Result<Response, ChimeError>) -> Void) {
    precondition(call.method == descriptor.method, "the call is not a \(descriptor.method.rawValue) call")
    do throws(ChimeError) {
      try admit(call, header: header)
      // Every descriptor's body is stored under its method with its own types.
      guard let body = bodies[descriptor.method] as? UnaryBody<Request, Response> else {
        throw ChimeError.internal("\(descriptor.method.rawValue) has no typed route")
      }
      try body.run(call, request, reply)
    } catch {
      reply(.failure(error))
    }
  }

  /// Opens a server stream whose request the transport decoded itself: `send` gets each
  /// message as a ChimeCore value (false: the transport no longer wants them). Ending it is
  /// the call's `onCancel`.
  ///
  /// - Throws: what `start` would have finished the call with (the checks, TOO_MANY_SUBSCRIBERS, ...).
  func stream<Request, Message>(_ descriptor: ServerStreamingCallDescriptor<Request, Message>, _ call: any ServerCall, header: CallHeader,
                                request: Request, send: @escaping (Message) -> Bool) throws(ChimeError) {
    precondition(call.method == descriptor.method, "the call is not a \(descriptor.method.rawValue) call")
    try admit(call, header: header)
    guard let body = bodies[descriptor.method] as? StreamBody<Request, Message> else {
      throw ChimeError.internal("\(descriptor.method.rawValue) has no typed route")
    }
    try body.run(call, request, send)
  }

  /// What every call passes before its method runs, whatever its transport: the daemon is
  /// serving, the app id is valid and the caller's to use, the deadline is ahead.
  private func admit(_ call: any ServerCall, header: CallHeader) throws(ChimeError) {
    guard !draining else { throw ChimeError(.shuttingDown, "chimed is shutting down") }
    try AppID.validate(header.appID)
    try PeerSandbox.check(declared: header.appID, confinedTo: call.confinedApp)
    if let deadline = header.deadline, deadline <= clock.now() {
      throw ChimeError(.deadlineExceeded, "the call's deadline passed before it started")
    }
  }

  /// The user's own settings (another app's settings, Do Not Disturb) are changed by the
  /// user's programs, not by a sandboxed app: a Flatpak or Snap could otherwise let its own
  /// notifications, and every other app's, through Do Not Disturb.
  private static func userSetting(_ call: any ServerCall, _ method: String) throws(ChimeError) {
    if let app = call.confinedApp {
      throw ChimeError(.userSettingFromSandbox, "\(method) changes the user's settings; the sandboxed app \(app) may not call it")
    }
  }

  /// Every method's handler: the service call behind each descriptor.
  private static func routes(service: NotificationService, server: ServerInfo, clock: any WallClock) -> RouteTable {
    var table = RouteTable()
    // Fixed for the daemon's life: answered at once, whoever asks.
    table.unary(CallTable.getServerInfo) { _, _, reply in
      reply(.success(server))
    }
    table.unary(CallTable.add) { call, request, reply in
      service.intake.add(app: call.app, request: request, reply: reply)
    }
    table.unary(CallTable.getPending) { call, page, reply throws(ChimeError) in
      _ = try page.resolvedSize()
      service.listings.pending(app: call.app, page: page, reply: reply)
    }
    table.unary(CallTable.getDelivered) { call, page, reply throws(ChimeError) in
      _ = try page.resolvedSize()
      service.listings.delivered(app: call.app, page: page, reply: reply)
    }
    table.unary(CallTable.removePending) { call, identifiers, reply in
      service.listings.removePending(app: call.app, identifiers: identifiers, reply: reply)
    }
    table.unary(CallTable.removeAllPending) { call, _, reply in
      service.listings.removePending(app: call.app, identifiers: nil, reply: reply)
    }
    table.unary(CallTable.removeDelivered) { call, identifiers, reply in
      service.listings.removeDelivered(app: call.app, identifiers: identifiers, reply: reply)
    }
    table.unary(CallTable.removeAllDelivered) { call, _, reply in
      service.listings.removeDelivered(app: call.app, identifiers: nil, reply: reply)
    }
    table.serverStreaming(CallTable.subscribe) { call, cursor, send throws(ChimeError) in
      let app = call.app
      let sink = StreamSink(send: send)
      let token = try service.listings.subscribe(app: app, after: cursor, sink: sink)
      call.onCancel = {
        _ = sink  // the hub holds the sink weakly; the call keeps it alive
        service.listings.unsubscribe(app: app, token: token)
      }
    }
    table.unary(CallTable.nextTriggerDates) { _, request, reply throws(ChimeError) in
      guard let trigger = request.trigger else {
        throw ChimeError(.triggerRequired, "give a trigger to preview", field: "trigger")
      }
      let count = request.count == 0 ? 5 : request.count
      reply(.success(try TriggerPlanner.preview(trigger, after: request.after ?? clock.now(), count: count, zone: service.floatingZone)))
    }
    table.unary(CallTable.setCategories) { call, categories, reply in
      service.apps.setCategories(app: call.app, categories: categories) { reply($0.map { Empty() }) }
    }
    table.unary(CallTable.getCategories) { call, _, reply in
      service.apps.categories(app: call.app, reply: reply)
    }
    table.unary(CallTable.respond) { call, response, reply in
      service.responses.respond(app: call.app, response: response, reply: reply)
    }
    table.serverStreaming(CallTable.registerExtension) { call, registration, send throws(ChimeError) in
      let app = call.app
      let sink = ExtensionStreamSink(send: send)
      let token = try service.responses.registerExtension(app: app, registration, sink: sink)
      call.onCancel = {
        _ = sink  // the hub holds the sink weakly; the call keeps it alive
        service.responses.unregisterExtension(app: app, token: token)
      }
    }
    table.unary(CallTable.answerResponse) { call, request, reply throws(ChimeError) in
      try service.responses.answerResponse(app: call.app, extensionIdentifier: request.extensionIdentifier, id: request.responseID, answer: request.answer)
      reply(.success(Empty()))
    }
    table.unary(CallTable.pressMediaButton) { call, press, reply in
      service.responses.pressMediaButton(app: call.app, press: press, reply: reply)
    }
    table.unary(CallTable.reportMediaPlayback) { call, report, reply in
      service.responses.reportMediaPlayback(app: call.app, report: report) { reply($0.map { _ in Empty() }) }
    }
    table.unary(CallTable.push) { call, submission, reply in
      service.intake.push(app: call.app, submission: submission, reply: reply)
    }
    table.unary(CallTable.answerService) { call, request, reply throws(ChimeError) in
      try service.intake.answerService(app: call.app, extensionIdentifier: request.extensionIdentifier, id: request.requestID, answer: request.answer)
      reply(.success(Empty()))
    }
    table.unary(CallTable.requestAuthorization) { call, options, reply in
      service.authorization.requestAuthorization(app: call.app, options: options, reply: reply)
    }
    table.unary(CallTable.getSettings) { call, _, reply in
      service.authorization.getSettings(app: call.app, reply: reply)
    }
    table.unary(CallTable.setBadgeCount) { call, count, reply in
      service.authorization.setBadgeCount(app: call.app, count: count) { reply($0.map { Empty() }) }
    }
    // A user-side call: the app it changes is in the request; the caller's app id is not used.
    table.unary(CallTable.setAppSettings) { call, change, reply throws(ChimeError) in
      try userSetting(call, "SetAppSettings")
      service.authorization.setAppSettings(change, reply: reply)
    }
    table.unary(CallTable.registerApp) { call, registration, reply in
      service.apps.registerApp(app: call.app, container: registration.container, groups: registration.groupContainers,
                          bundle: registration.bundle, displayName: registration.displayName,
                          desktopEntry: registration.desktopEntry, reply: reply)
    }
    table.unary(CallTable.getApp) { call, _, reply in
      service.apps.app(app: call.app, reply: reply)
    }
    table.unary(CallTable.listApps) { _, _, reply in
      service.apps.apps(reply: reply)
    }
    table.unary(CallTable.checkSound) { call, name, reply in
      service.apps.checkSound(app: call.app, name: name, reply: reply)
    }
    // User-side calls: the user's setting, not the caller's app.
    table.unary(CallTable.setDoNotDisturb) { call, change, reply throws(ChimeError) in
      try userSetting(call, "SetDoNotDisturb")
      service.doNotDisturb.set(change, reply: reply)
    }
    table.unary(CallTable.getDoNotDisturb) { _, _, reply in
      service.doNotDisturb.get(reply: reply)
    }
    table.unary(CallTable.snooze) { call, request, reply in
      service.snoozes.snooze(app: call.app, request, reply: reply)
    }
    return table
  }
}

/// Sends a subscriber's events as stream messages of its call.
private final class StreamSink: EventSink {
  let sendEvent: (Event) -> Bool
  init(send: @escaping (Event) -> Bool) { sendEvent = send }

  func send(_ event: Event) -> Bool {
    sendEvent(event)
  }
}

/// Sends a content extension's messages as stream messages of its call.
private final class ExtensionStreamSink: ExtensionSink {
  let sendEvent: (ExtensionEvent) -> Bool
  init(send: @escaping (ExtensionEvent) -> Bool) { sendEvent = send }

  func send(_ event: ExtensionEvent) -> Bool {
    sendEvent(event)
  }
}
