import ChimeCore
import ChimeServer
import ChimeWire

/// The signals of one app's notifications, sent to that app's registered connections only:
/// one `Subscribe` stream through the router per app with a connection on the bus, whose events
/// become `Delivered`, `Response`, `PendingRemoved`, `BadgeChanged`, `RingEnded`, `AuthorizationChanged`, `PendingAdded` and
/// `DeliveredRemoved`, each sent
/// with the connection as its destination (never broadcast). Loop thread only.
final class DBusAppSignals {
  let app: String
  /// Unique names of the connections registered as the app, in the order they came.
  private(set) var listeners: [String] = []
  private let call: DBusCall

  /// - Throws: what opening the stream failed with (TOO_MANY_SUBSCRIBERS, SHUTTING_DOWN).
  init(app: String, router: CallRouter, emit: @escaping (_ member: String, _ arguments: [BusValue], _ to: [String]) -> Void) throws(ChimeError) {
    self.app = app
    call = DBusCall(.subscribe, app: app, confinedApp: nil)
    try router.stream(Routes.subscribe, call, header: CallHeader(method: Method.subscribe.rawValue, appID: app), request: nil) {
      [weak self] event in
      guard let self else { return false }
      if let (member, arguments) = Self.signal(for: event) { emit(member, arguments, listeners) }
      return true
    }
  }

  func add(_ name: String) {
    if !listeners.contains(name) { listeners.append(name) }
  }

  func remove(_ name: String) {
    listeners.removeAll { $0 == name }
  }

  /// Ends the app's stream.
  func close() { call.cancel() }

  /// The signal an event becomes, if any.
  static func signal(for event: Event) -> (String, [BusValue])? {
    switch event.kind {
    case .delivered:
      guard let delivered = event.delivered else { return nil }
      return ("Delivered", [.string(delivered.request.identifier), .vardict(DBusRecords.delivered(delivered))])
    case .response:
      guard let response = event.response else { return nil }
      return ("Response", [.string(response.notificationIdentifier), .string(response.actionIdentifier),
                           .vardict(DBusRecords.responseDetails(response))])
    case .pendingRemoved, .pendingFinished:
      // A repeating request that ended left the pending list as a removed one did.
      return ("PendingRemoved", [.strings(event.identifiers)])
    case .badgeChanged:
      return ("BadgeChanged", [.int32(Int32(clamping: event.badgeCount ?? 0))])
    case .pendingAdded, .pendingReplaced, .snoozed:
      guard let pending = event.pending else { return nil }
      return ("PendingAdded", [.string(pending.request.identifier), .vardict(DBusRecords.pending(pending))])
    case .deliveredRemoved:
      return ("DeliveredRemoved", [.strings(event.identifiers)])
    case .ringEnded:
      return ("RingEnded", [.string(event.identifiers.first ?? ""), .string(event.note)])
    case .authorizationChanged:
      return ("AuthorizationChanged", [.string(event.note)])
    default:
      return nil
    }
  }
}
