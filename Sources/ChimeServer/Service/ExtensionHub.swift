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

  private var entries: [String: [Entry]] = [:]
  private var nextToken: UInt64 = 1

  var registrationCount: Int { entries.values.reduce(0) { $0 + $1.count } }

  /// Registers `sink` for `app`; returns a token for `unregister`.
  ///
  /// - Throws: ALREADY_EXISTS `EXTENSION_ALREADY_REGISTERED` when a live registration of the
  ///   app has the same extension identifier.
  func register(app: String, _ registration: ExtensionRegistration, sink: any ExtensionSink) throws(ChimeError) -> UInt64 {
    prune(app)
    let id = registration.extensionIdentifier
    guard !(entries[app] ?? []).contains(where: { $0.registration.extensionIdentifier.utf8.elementsEqual(id.utf8) }) else {
      throw ChimeError(.extensionAlreadyRegistered, "content extension \"\(id)\" is already registered by another connection",
                       field: "extension_identifier")
    }
    let token = nextToken
    nextToken += 1
    entries[app, default: []].append(Entry(token: token, registration: registration, sink: sink))
    return token
  }

  func unregister(app: String, token: UInt64) {
    entries[app]?.removeAll { $0.token == token }
    if entries[app]?.isEmpty == true { entries[app] = nil }
  }

  /// The extension identifiers of `app` that handle `category`, sorted.
  func routes(app: String, category: String) -> [String] {
    prune(app)
    return ExtensionRegistration.routes(category, among: (entries[app] ?? []).map(\.registration))
  }

  /// Shows a committed delivery to the extensions of its category.
  func delivered(_ notification: DeliveredNotification, app: String) {
    send(ExtensionEvent(delivered: notification), app: app, category: notification.request.content.categoryIdentifier)
  }

  /// Shows a committed response to the extensions of the notification's category.
  func responded(_ response: NotificationResponse, category: String, app: String) {
    send(ExtensionEvent(response: response), app: app, category: category)
  }

  private func send(_ event: ExtensionEvent, app: String, category: String) {
    guard let group = entries[app] else { return }
    for entry in group where entry.registration.handles(category) {
      _ = entry.sink?.send(event)
    }
  }

  /// Drops entries whose stream is gone.
  private func prune(_ app: String) {
    entries[app]?.removeAll { $0.sink == nil }
    if entries[app]?.isEmpty == true { entries[app] = nil }
  }
}
