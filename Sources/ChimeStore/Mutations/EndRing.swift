public import ChimeCore

/// Records that a delivered notification's ring stopped, and why: the notification (when it is
/// still the delivery that rang, delivered at `deliveredAt`) keeps `ringEnded`, so a restarted
/// chimed does not ring it again, and a `ring-ended` event with the reason as its note goes to
/// the app's subscribers. A removed notification has no row left to mark; its event is still
/// appended.
public struct EndRing: Mutation {
  public var app: String
  public var identifier: String
  public var deliveredAt: Instant
  public var why: RingEnd
  public var at: Instant

  public init(app: String, identifier: String, deliveredAt: Instant, why: RingEnd, at: Instant) {
    self.app = app
    self.identifier = identifier
    self.deliveredAt = deliveredAt
    self.why = why
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    /// When the ring ran out and may snooze its notification: for how long
    /// (`RingRule.autoSnoozeSeconds`).
    public var autoSnoozeSeconds: Int64?
    public var discardedFiles: [String] { [] }
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    try WriteTransaction.check(app: app, identifier: identifier)
    let select = try t.db.cachedStatement(sql: "SELECT body FROM delivered WHERE app = ? AND identifier = ?")
    let current = try Row.fetchOne(select, arguments: [app, identifier]).map { row in try ChimeDatabase.delivered(from: row, codec: t.codec) }
    var outcome = Outcome()
    if var delivered = current, delivered.delivered == deliveredAt, delivered.ringEnded == nil {
      delivered.ringEnded = why
      try t.storeDelivered(delivered, app: app)
      outcome.autoSnoozeSeconds = RingRule.autoSnoozeSeconds(delivered, why: why)
    }
    outcome.events.append(try t.append(Event(at: at, kind: .ringEnded, identifiers: [identifier], note: why.rawValue), app: app))
    return outcome
  }
}
