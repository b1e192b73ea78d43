public import ChimeCore
import GRDB

/// Schedules `pending` under its `request.identifier`, replacing a pending request with the
/// same (app, identifier) wholesale. Event: `.pendingAdded`, or `.pendingReplaced` when one
/// existed. Fails with RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED` past the app's quota.
public struct AddPending: Mutation {
  public var app: String
  public var pending: PendingRequest
  public var at: Instant

  public init(app: String, pending: PendingRequest, at: Instant) {
    self.app = app
    self.pending = pending
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event]
    /// A pending request with the same identifier existed.
    public var replaced: Bool
    public var discardedFiles: [String]
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    let identifier = pending.request.identifier
    try WriteTransaction.check(app: app, identifier: identifier)
    let replaced = try t.exists(.pending, app: app, identifier: identifier)
    try t.db.cachedStatement(sql: """
      INSERT INTO pending (app, identifier, next_fire, added, fire_count, body, floating) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET next_fire = excluded.next_fire, added = excluded.added,
        fire_count = excluded.fire_count, body = excluded.body, floating = excluded.floating
      """).execute(arguments: [
        app, identifier, pending.nextFire.unixMillis, pending.added.unixMillis,
        Int64(clamping: pending.fireCount), t.codec.encode(pending), pending.request.trigger?.isFloating == true ? 1 : 0,
      ])
    let discarded = try t.endPending(app: app, identifier: identifier)
    try t.store.holdAttachments(pending.request, as: .pending, app: app, db: t.db)
    let event = Event(at: at, kind: replaced ? .pendingReplaced : .pendingAdded, identifiers: [identifier], pending: pending)
    return Outcome(events: [try t.append(event, app: app)], replaced: replaced, discardedFiles: discarded)
  }
}

extension Mutation where Self == AddPending {
  public static func add(app: String, pending: PendingRequest, at: Instant) -> AddPending {
    AddPending(app: app, pending: pending, at: at)
  }
}
