public import ChimeCore
import Foundation
import GRDB

/// Schedules `pending` under its `request.identifier`, replacing a pending request with the
/// same (app, identifier) wholesale. Event: `.pendingAdded`, or `.pendingReplaced` when one
/// existed. Fails with RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED` past the app's quota,
/// and `PENDING_LIMIT` when a new identifier would take the app past `limit` pending requests.
public struct AddPending: Mutation {
  public let app: String
  public let pending: PendingRequest
  public let at: Instant
  /// The most pending requests the app may hold; replacing one never counts against it.
  public let limit: Int
  /// `pending` as its row and its event store it, packed where the mutation is made (on the
  /// loop) rather than in the write transaction, which one thread runs for every client.
  let packed: [UInt8]

  public init(app: String, pending: PendingRequest, at: Instant, limit: Int = Limits.pendingPerAppDefault) {
    self.app = app
    self.pending = pending
    self.at = at
    self.limit = limit
    packed = RecordCodec().pack(pending)
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
    // Whether the identifier is taken, and how many the app holds (kept by triggers on
    // `pending`, migration v6): one statement, whatever the app holds.
    let row = try Row.fetchOne(t.db.cachedStatement(sql: """
      SELECT EXISTS (SELECT 1 FROM pending WHERE app = ? AND identifier = ?), (SELECT count FROM app_pending WHERE app = ?)
      """), arguments: [app, identifier, app])
    let replaced = try row?.decode(Bool.self, atIndex: 0) ?? false
    if !replaced {
      let held = try StoreError.decoding("pending count") { try row?.decode(Int?.self, atIndex: 1) ?? 0 }
      guard held < limit else {
        throw ChimeError(.pendingLimit,
                         "the app already has \(held) pending requests, the most it may hold (chimed --max-pending-per-app); remove some or replace one by its identifier")
      }
    }
    try t.db.cachedStatement(sql: """
      INSERT INTO pending (app, identifier, next_fire, added, fire_count, body, floating) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET next_fire = excluded.next_fire, added = excluded.added,
        fire_count = excluded.fire_count, body = excluded.body, floating = excluded.floating
      """).execute(arguments: [
        app, identifier, pending.nextFire.unixMillis, pending.added.unixMillis,
        Int64(clamping: pending.fireCount), Data(packed), pending.request.trigger?.isFloating == true ? 1 : 0,
      ])
    // A new identifier has no earlier pending request whose files could be let go.
    let discarded = replaced ? try t.endPending(app: app, identifier: identifier) : []
    try t.store.holdAttachments(pending.request, as: .pending, app: app, db: t.db)
    let event = Event(at: at, kind: replaced ? .pendingReplaced : .pendingAdded, identifiers: [identifier], pending: pending)
    return Outcome(events: [try t.append(event, app: app, packedPending: packed)], replaced: replaced, discardedFiles: discarded)
  }
}

extension Mutation where Self == AddPending {
  public static func add(app: String, pending: PendingRequest, at: Instant, limit: Int = Limits.pendingPerAppDefault) -> AddPending {
    AddPending(app: app, pending: pending, at: at, limit: limit)
  }
}
