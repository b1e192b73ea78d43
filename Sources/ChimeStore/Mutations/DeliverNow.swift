public import ChimeCore

/// A request with no trigger, delivered at once. Removes a pending request with the same
/// identifier (`replaced`, event `.pendingRemoved`), records `delivered` (replacing a delivered
/// notification with the same identifier) with the snapshot of its category taken in the same
/// transaction, and appends a `.delivered` event (with `note`); then sets the app's badge to
/// `badge` when given (a `.badgeChanged` event if it changed).
public struct DeliverNow: Mutation {
  public var app: String
  public var delivered: DeliveredNotification
  public var at: Instant
  /// The badge count the delivery sets (decided by `DeliveryShape`), or nil to leave it.
  public var badge: Int?
  public var note: String

  public init(app: String, delivered: DeliveredNotification, at: Instant, badge: Int? = nil, note: String = "") {
    self.app = app
    self.delivered = delivered
    self.at = at
    self.badge = badge
    self.note = note
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    /// A pending request with the same identifier existed and was removed.
    public var replaced = false
    public var discardedFiles: [String] = []
    /// What was recorded: `delivered` with its category snapshot.
    public var delivered: DeliveredNotification
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    let identifier = delivered.request.identifier
    try WriteTransaction.check(app: app, identifier: identifier)
    let delivered = try t.withCategorySnapshot(self.delivered, app: app)
    var outcome = Outcome(delivered: delivered)
    if try t.delete(.pending, app: app, identifier: identifier) {
      outcome.replaced = true
      let removed = Event(at: at, kind: .pendingRemoved, identifiers: [identifier], note: "replaced by a request delivered at once")
      outcome.events.append(try t.append(removed, app: app))
    }
    try t.storeDelivered(delivered, app: app)
    try t.store.releaseAttachments(.pending, app: app, identifier: identifier, db: t.db)
    try t.store.releaseAttachments(.delivered, app: app, identifier: identifier, db: t.db)
    outcome.discardedFiles = try t.store.collectAttachments(app: app, identifier: identifier, db: t.db)
    try t.store.holdAttachments(delivered.request, as: .delivered, app: app, db: t.db)
    let event = Event(at: at, kind: .delivered, identifiers: [identifier], delivered: delivered, note: note)
    outcome.events.append(try t.append(event, app: app))
    if let badge, let changed = try t.setBadge(badge, app: app, at: at, identifiers: [identifier]) {
      outcome.events.append(changed)
    }
    return outcome
  }
}

extension Mutation where Self == DeliverNow {
  public static func deliverNow(app: String, delivered: DeliveredNotification, at: Instant) -> DeliverNow {
    DeliverNow(app: app, delivered: delivered, at: at)
  }
}
