public import ChimeCore
import ChimeRecords

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
  /// `pending` as its row and its event store it (protobuf, chime.v1.PendingRequest), packed
  /// where the mutation is made (on the loop) rather than in the write transaction, which one
  /// thread runs for every client; the event the add appends carries the same bytes.
  public let packed: [UInt8]
  /// The body of the `.pendingAdded` event a new identifier appends, packed here too, so the
  /// one thread that commits for every client does not pack it (5.8k instructions of an add).
  /// A replacement's event (`.pendingReplaced`) is packed in the transaction.
  let packedAddedEvent: [UInt8]

  public init(app: String, pending: PendingRequest, at: Instant, limit: Int = Limits.pendingPerAppDefault) {
    self.app = app
    self.pending = pending
    self.at = at
    self.limit = limit
    let codec = RecordCodec()
    packed = codec.encode(pending)
    packedAddedEvent = codec.encodeEvent(at: at, kind: .pendingAdded, identifier: pending.request.identifier, packedPending: packed)
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
    let row: [DirectStatement.Value] = [
      .text(app), .text(identifier), .integer(pending.nextFire.unixMillis), .integer(pending.added.unixMillis),
      .integer(Int64(clamping: pending.fireCount)), .blob(packed), .integer(pending.request.trigger?.isFloating == true ? 1 : 0),
    ]
    try t.direct(.insertNewPending).execute(row)
    let replaced = t.db.changesCount == 0
    if replaced {
      try t.direct(.replacePending).execute(row)
    } else {
      // Counted, then checked: past the limit the row goes with the mutation's savepoint.
      // A replacement never counts against the limit.
      t.countPending(app, 1)
      let held = try t.heldPending(app) - 1
      guard held < limit else {
        throw ChimeError(.pendingLimit,
                         "the app already has \(held) pending requests, the most it may hold (chimed --max-pending-per-app); remove some or replace one by its identifier")
      }
    }
    // A new identifier has no earlier pending request whose files could be let go.
    let discarded = replaced ? try t.endPending(app: app, identifier: identifier) : []
    try t.store.holdAttachments(pending.request, as: .pending, app: app, db: t.db)
    let kind: Event.Kind = replaced ? .pendingReplaced : .pendingAdded
    let body = replaced ? t.codec.encodeEvent(at: at, kind: kind, identifier: identifier, packedPending: packed) : packedAddedEvent
    var event = Event(at: at, kind: kind, identifiers: [identifier], pending: pending)
    event.cursor = try t.appendPacked(kind, at: at, app: app, body: body)
    return Outcome(events: [event], replaced: replaced, discardedFiles: discarded)
  }
}

extension Mutation where Self == AddPending {
  public static func add(app: String, pending: PendingRequest, at: Instant, limit: Int = Limits.pendingPerAppDefault) -> AddPending {
    AddPending(app: app, pending: pending, at: at, limit: limit)
  }
}
