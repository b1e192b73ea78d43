/// Something that happened to one app's notifications, as streamed to subscribers.
public struct Event: Hashable, Sendable {
  public enum Kind: Int, Hashable, Sendable {
    case delivered = 1
    case pendingAdded = 2
    case pendingReplaced = 3
    case pendingRemoved = 4
    case deliveredRemoved = 5
    /// A missed fire the request's policy skipped.
    case missedSkipped = 6
    case response = 7
    /// Events between the resume cursor and the next one were dropped by retention.
    case eventsLost = 8
    /// The stream is live (sent after any replayed events).
    case subscribed = 9
    /// The app's badge count changed; `badgeCount` is the new count.
    case badgeChanged = 10
    /// A presenter could not show or sound a delivery (which stands); `note` says why. Live only.
    case presentationFailed = 11
    /// A repeating request left the pending list after its last fire (its end was reached, or
    /// its trigger has no later date).
    case pendingFinished = 12
    /// A delivered notification was snoozed and left the delivered list; `pending` is its
    /// snoozed entry (its `nextFire` is when it comes back).
    case snoozed = 13
    /// A delivered notification's ring stopped; `note` is the `RingEnd` (why).
    case ringEnded = 14
    /// The user allowed or denied the app (its prompt, `chime apps`, the Center); `note` is the
    /// new status's name (`authorized`, `denied`).
    case authorizationChanged = 15

    public var name: String {
      switch self {
      case .delivered: "delivered"
      case .pendingAdded: "pending-added"
      case .pendingReplaced: "pending-replaced"
      case .pendingRemoved: "pending-removed"
      case .deliveredRemoved: "delivered-removed"
      case .missedSkipped: "missed-skipped"
      case .response: "response"
      case .eventsLost: "events-lost"
      case .subscribed: "subscribed"
      case .badgeChanged: "badge-changed"
      case .presentationFailed: "presentation-failed"
      case .pendingFinished: "pending-finished"
      case .snoozed: "snoozed"
      case .ringEnded: "ring-ended"
      case .authorizationChanged: "authorization-changed"
      }
    }
  }

  /// Increasing across the daemon's life; 0 for events that are not stored (subscribed).
  public var cursor: UInt64
  public var at: Instant
  public var kind: Kind
  public var identifiers: [String]
  public var delivered: DeliveredNotification?
  public var pending: PendingRequest?
  /// The user's answer, on a `.response` event.
  public var response: NotificationResponse?
  public var note: String
  /// `.badgeChanged`: the new count.
  public var badgeCount: Int?

  public init(cursor: UInt64 = 0, at: Instant, kind: Kind, identifiers: [String] = [], delivered: DeliveredNotification? = nil, pending: PendingRequest? = nil,
              response: NotificationResponse? = nil, note: String = "", badgeCount: Int? = nil) {
    self.response = response
    self.badgeCount = badgeCount
    self.cursor = cursor
    self.at = at
    self.kind = kind
    self.identifiers = identifiers
    self.delivered = delivered
    self.pending = pending
    self.note = note
  }
}
