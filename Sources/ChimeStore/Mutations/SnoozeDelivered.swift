public import ChimeCore

/// Snoozes the app's delivered notification `identifier`: it leaves the delivered list (its
/// files move to the snoozed holder) and waits in the snoozed table until `at + duration`, when
/// the scheduler delivers it again (`Fire` of a snoozed key). A `.snoozed` event carries the
/// entry GetPending lists. A pending request with the same identifier is untouched: a
/// repeating request's next fire does not move. Fails with NOT_FOUND
/// `NOTIFICATION_NOT_DELIVERED` when the app has no such delivered notification.
public struct SnoozeDelivered: Mutation {
  public var app: String
  public var identifier: String
  public var duration: SnoozeDuration
  public var at: Instant

  public init(app: String, identifier: String, duration: SnoozeDuration, at: Instant) {
    self.app = app
    self.identifier = identifier
    self.duration = duration
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event]
    public var discardedFiles: [String]
    /// The snoozed entry as GetPending lists it.
    public var snoozed: PendingRequest
    /// Its return, for the scheduler.
    public var key: ScheduleKey
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    try WriteTransaction.check(app: app, identifier: identifier)
    let select = try t.db.cachedStatement(sql: "SELECT body FROM delivered WHERE app = ? AND identifier = ?")
    guard let delivered = try Row.fetchOne(select, arguments: [app, identifier]).map({ row in try ChimeDatabase.delivered(from: row, codec: t.codec) })
    else {
      throw ChimeError(.notificationNotDelivered, "no delivered notification \"\(identifier)\" to snooze", field: "notification_identifier")
    }
    let snoozed = try t.snooze(delivered, app: app, for: duration, at: at)
    let discarded = try t.store.collectAttachments(app: app, identifier: identifier, db: t.db)
    return Outcome(events: [snoozed.event], discardedFiles: discarded, snoozed: snoozed.entry, key: snoozed.key)
  }
}
