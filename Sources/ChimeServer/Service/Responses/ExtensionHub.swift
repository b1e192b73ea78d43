import ChimeCore

/// Where a content extension's stream messages go. Loop thread only.
protocol ExtensionSink: AnyObject {
  /// Sends one message; false when the stream is gone.
  func send(_ event: ExtensionEvent) -> Bool
}

/// Each app's live content-extension registrations, and the fan-out of deliveries and
/// responses to the extensions of their category. A registration lives as long as its call.
/// Loop thread only.
final class ExtensionHub {
  private struct Entry {
    let token: UInt64
    let registration: ExtensionRegistration
    weak var sink: (any ExtensionSink)?
  }

  /// A response waiting for an extension's answer.
  private struct Ask {
    let app: String
    let extensionIdentifier: String
    let token: UInt64
    let deadline: Instant
    let resolve: (ExtensionAnswer) -> Void
  }

  /// A pushed notification waiting for its service extension's content.
  private struct ServiceAsk {
    let app: String
    let extensionIdentifier: String
    let token: UInt64
    let deadline: Instant
    let graceEnd: Instant
    /// The extension was told its time will expire: an answer now is its best attempt.
    var warned = false
    let resolve: (ServiceAnswer, _ bestAttempt: Bool) -> Void
  }

  private var entries: [String: [Entry]] = [:]
  private var nextToken: UInt64 = 1
  private var asks: [UInt64: Ask] = [:]
  private var nextAskID: UInt64 = 1
  private var serviceAsks: [UInt64: ServiceAsk] = [:]

  var registrationCount: Int { entries.values.reduce(0) { $0 + $1.count } }

  /// Registers `sink` for `app`; returns a token for `unregister`.
  ///
  /// - Throws: ALREADY_EXISTS `EXTENSION_ALREADY_REGISTERED` when a live registration of the
  ///   app has the same extension identifier.
  func register(app: String, _ registration: ExtensionRegistration, sink: any ExtensionSink) throws(ChimeError) -> UInt64 {
    prune(app)
    let id = registration.extensionIdentifier
    // One live service extension per app: it is the one every mutable push goes to.
    if registration.isService, let holder = (entries[app] ?? []).first(where: { $0.registration.isService }) {
      throw ChimeError(.extensionAlreadyRegistered,
                       "the app already has a live service extension (\"\(holder.registration.extensionIdentifier)\")", field: "service")
    }
    guard !(entries[app] ?? []).contains(where: { $0.registration.extensionIdentifier.utf8.elementsEqual(id.utf8) }) else {
      throw ChimeError(.extensionAlreadyRegistered, "content extension \"\(id)\" is already registered by another connection",
                       field: "extension_identifier")
    }
    // One live content extension per category: it is the one shown the category's deliveries
    // and asked about its responses.
    for (i, category) in registration.categoryIdentifiers.enumerated() {
      if let holder = (entries[app] ?? []).first(where: { $0.registration.handles(category) }) {
        throw ChimeError(.extensionAlreadyRegistered,
                         "category \"\(category)\" already has a live content extension (\"\(holder.registration.extensionIdentifier)\")",
                         field: "category_identifiers[\(i)]")
      }
    }
    let token = nextToken
    nextToken += 1
    entries[app, default: []].append(Entry(token: token, registration: registration, sink: sink))
    return token
  }

  /// Ends a registration; responses waiting for its answer go ahead as if it had none.
  func unregister(app: String, token: UInt64) {
    entries[app]?.removeAll { $0.token == token }
    if entries[app]?.isEmpty == true { entries[app] = nil }
    resolve(asks.filter { $0.value.token == token }.map(\.key), with: .noExtension)
    resolveService(serviceAsks.filter { $0.value.token == token }.map(\.key).sorted(), with: .disconnected)
  }

  // MARK: Asking

  /// Shows `response` to the first extension (by identifier) of `category` and calls `resolve`
  /// exactly once with its answer, or with `.noExtension` when it does not answer by
  /// `deadline` (see `expire`), its stream ends, or `resolveAll` runs. Returns the extension
  /// asked, or nil when none handles the category (`resolve` is not called then).
  func ask(app: String, category: String, response: NotificationResponse, deadline: Instant,
           resolve: @escaping (ExtensionAnswer) -> Void) -> String? {
    prune(app)
    let candidates = (entries[app] ?? []).filter { $0.registration.handles(category) }
      .sorted { $0.registration.extensionIdentifier < $1.registration.extensionIdentifier }
    guard let entry = candidates.first(where: { $0.sink != nil }), let sink = entry.sink else { return nil }
    let id = nextAskID
    nextAskID += 1
    asks[id] = Ask(app: app, extensionIdentifier: entry.registration.extensionIdentifier, token: entry.token, deadline: deadline, resolve: resolve)
    if !sink.send(ExtensionEvent(response: response, responseID: id)) {
      self.resolve([id], with: .noExtension)
    }
    return entry.registration.extensionIdentifier
  }

  /// An extension's answer to response `id`.
  ///
  /// - Throws: NOT_FOUND `RESPONSE_NOT_AWAITED` when that response does not await this
  ///   extension's answer.
  func answer(app: String, extensionIdentifier: String, id: UInt64, _ answer: ExtensionAnswer) throws(ChimeError) {
    guard let ask = asks[id], ask.app == app, ask.extensionIdentifier.utf8.elementsEqual(extensionIdentifier.utf8) else {
      throw ChimeError(.responseNotAwaited, "response \(id) does not await an answer from \"\(extensionIdentifier)\"", field: "response_id")
    }
    resolve([id], with: answer)
  }

  /// The earliest deadline of a waiting response, or of a service request (its deadline, then
  /// the end of its grace period).
  var earliestDeadline: Instant? {
    (asks.values.map(\.deadline) + serviceAsks.values.map { $0.warned ? $0.graceEnd : $0.deadline }).min()
  }

  /// Responses whose deadline has passed go ahead as if there were no extension. A service
  /// extension past its deadline is told its time will expire; past its grace period, the
  /// original content goes ahead.
  func expire(now: Instant) {
    resolve(asks.filter { $0.value.deadline <= now }.map(\.key).sorted(), with: .noExtension)
    resolveService(serviceAsks.filter { $0.value.warned && $0.value.graceEnd <= now }.map(\.key).sorted(), with: .timedOut)
    for id in serviceAsks.keys.sorted() {
      guard let ask = serviceAsks[id], !ask.warned, ask.deadline <= now else { continue }
      serviceAsks[id]?.warned = true
      let sent = ask.graceEnd > now && send(ExtensionEvent(serviceTimeWillExpire: id), app: ask.app, to: ask.extensionIdentifier)
      if !sent { resolveService([id], with: ask.graceEnd > now ? .disconnected : .timedOut) }
    }
  }

  /// Every waiting response goes ahead as if there were no extension, and every pushed
  /// notification with its original content (chimed is stopping).
  func resolveAll() {
    resolve(asks.keys.sorted(), with: .noExtension)
    resolveService(serviceAsks.keys.sorted(), with: .disconnected)
  }

  // MARK: Service extensions

  /// The identifier of `app`'s live service extension, if any.
  func serviceExtension(app: String) -> String? {
    prune(app)
    return (entries[app] ?? []).first { $0.sink != nil && $0.registration.isService }?.registration.extensionIdentifier
  }

  /// Sends `request` to `app`'s live service extension and calls `resolve` exactly once: with
  /// its answer (and whether it came after the time-will-expire notice), `.timedOut` after
  /// `deadline` and `grace` (see `expire`), or `.disconnected` when its stream ends or
  /// `resolveAll` runs. Returns the extension asked, or nil when none is live (`resolve` is
  /// not called then).
  func askService(app: String, request: NotificationRequest, deadline: Instant, graceMillis: Int64,
                  resolve: @escaping (ServiceAnswer, _ bestAttempt: Bool) -> Void) -> String? {
    prune(app)
    guard let entry = (entries[app] ?? []).first(where: { $0.sink != nil && $0.registration.isService }), let sink = entry.sink else { return nil }
    let id = nextAskID
    nextAskID += 1
    serviceAsks[id] = ServiceAsk(app: app, extensionIdentifier: entry.registration.extensionIdentifier, token: entry.token,
                                 deadline: deadline, graceEnd: deadline.adding(millis: graceMillis), resolve: resolve)
    if !sink.send(ExtensionEvent(serviceRequest: ServiceRequest(id: id, request: request, deadline: deadline))) {
      resolveService([id], with: .disconnected)
    }
    return entry.registration.extensionIdentifier
  }

  /// A service extension's answer to request `id`.
  ///
  /// - Throws: NOT_FOUND `SERVICE_REQUEST_NOT_AWAITED` when that request does not await this
  ///   extension's answer (answered, timed out, or another's).
  func answerService(app: String, extensionIdentifier: String, id: UInt64, _ answer: ServiceAnswer) throws(ChimeError) {
    guard let ask = serviceAsks[id], ask.app == app, ask.extensionIdentifier.utf8.elementsEqual(extensionIdentifier.utf8) else {
      throw ChimeError(.serviceRequestNotAwaited, "service request \(id) does not await an answer from \"\(extensionIdentifier)\"",
                       field: "request_id")
    }
    resolveService([id], with: answer)
  }

  private func resolveService(_ ids: [UInt64], with answer: ServiceAnswer) {
    for id in ids {
      guard let ask = serviceAsks.removeValue(forKey: id) else { continue }
      ask.resolve(answer, ask.warned)
    }
  }

  private func resolve(_ ids: [UInt64], with answer: ExtensionAnswer) {
    for id in ids {
      guard let ask = asks.removeValue(forKey: id) else { continue }
      ask.resolve(answer)
    }
  }

  /// The extension identifiers of `app` that handle `category`, sorted.
  func routes(app: String, category: String) -> [String] {
    prune(app)
    return ExtensionRegistration.routes(category, among: (entries[app] ?? []).map(\.registration))
  }

  /// The attributes of the first live extension (by identifier) of `app` that handles
  /// `category`; nil when none does.
  func attributes(app: String, category: String) -> ExtensionAttributes? {
    live(app: app, category: category)?.attributes
  }

  /// The first live registration (by identifier) of `app` that handles `category`.
  func live(app: String, category: String) -> ExtensionRegistration? {
    prune(app)
    return (entries[app] ?? []).filter { $0.sink != nil && $0.registration.handles(category) }
      .min { $0.registration.extensionIdentifier < $1.registration.extensionIdentifier }?.registration
  }

  /// `app`'s live registration of extension `identifier`.
  func registration(app: String, identifier: String) -> ExtensionRegistration? {
    prune(app)
    return (entries[app] ?? []).first { $0.sink != nil && $0.registration.extensionIdentifier.utf8.elementsEqual(identifier.utf8) }?.registration
  }

  /// Sends `event` to `app`'s extension `identifier`; false when it is not live.
  func send(_ event: ExtensionEvent, app: String, to identifier: String) -> Bool {
    prune(app)
    guard let entry = (entries[app] ?? []).first(where: { $0.registration.extensionIdentifier.utf8.elementsEqual(identifier.utf8) }),
          let sink = entry.sink else { return false }
    return sink.send(event)
  }

  /// Shows a committed delivery to the extensions of its category.
  func delivered(_ notification: DeliveredNotification, app: String) {
    send(ExtensionEvent(delivered: notification), app: app, category: notification.request.content.categoryIdentifier)
  }

  /// Shows a committed response to the extensions of the notification's category, but for
  /// `asked` (which was shown it with its `response_id`).
  func responded(_ response: NotificationResponse, category: String, app: String, except asked: String? = nil) {
    send(ExtensionEvent(response: response), app: app, category: category, except: asked)
  }

  private func send(_ event: ExtensionEvent, app: String, category: String, except: String? = nil) {
    guard let group = entries[app] else { return }
    for entry in group where entry.registration.handles(category) && entry.registration.extensionIdentifier != except {
      _ = entry.sink?.send(event)
    }
  }

  /// Drops entries whose stream is gone.
  private func prune(_ app: String) {
    entries[app]?.removeAll { $0.sink == nil }
    if entries[app]?.isEmpty == true { entries[app] = nil }
  }
}
