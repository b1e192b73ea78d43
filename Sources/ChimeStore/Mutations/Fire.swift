public import ChimeCore

/// Carries out a planned fire of the pending row it was planned from: records the delivered
/// notification with the snapshot of its category taken in this transaction (event
/// `.delivered`, with `note`) or the skip (event `.missedSkipped`), then
/// advances a repeating request to `next` (`fire_count` + 1) or removes it (a repeating one
/// that ended with a `.pendingFinished` event). When the row
/// changed since it was read (replaced, removed, fired), nothing happens: the outcome is
/// `.stale`.
///
/// The fire of a snoozed key delivers the snoozed notification again (its files move back to
/// the delivered holder) and deletes its snoozed row; no pending request changes.
public struct Fire: Mutation {
  public enum Delivery: Sendable, Hashable {
    /// Record this as delivered; `note` (may be empty) goes on the event, e.g. why a custom
    /// sound was replaced by the default at delivery.
    case deliver(DeliveredNotification, note: String)
    case skip(note: String)
  }

  public var key: ScheduleKey
  public var revision: PendingRevision
  public var delivery: Delivery
  public var next: Instant?
  /// A repeating request whose trigger has no fire after this one: it leaves the pending list
  /// with a `.pendingFinished` event.
  public var finished: Bool
  /// When the fire was seen.
  public var at: Instant
  /// The badge count a delivery sets (decided by `DeliveryShape`), or nil to leave it.
  public var badge: Int?
  public var app: String { key.app }

  /// The fire `plan` decided for `row`, seen at `now`, with the sound as checked at delivery.
  public init(_ row: PendingRow, plan: FirePlan, now: Instant, sound: SoundResolution?, note: String = "") {
    key = row.key
    revision = row.revision
    next = plan.next
    finished = plan.next == nil && row.pending.request.trigger?.repeats == true
    at = now
    switch plan.delivery {
    case .deliver(let missed):
      delivery = .deliver(DeliveredNotification(request: row.pending.request, delivered: now, due: row.key.due,
                                                missed: missed, sound: sound), note: note)
    case .skip(let note):
      delivery = .skip(note: note)
    }
  }

  /// The return of the snoozed notification `row` (a snoozed key's row), seen at `now`: the
  /// same content and attachments, with its snooze count; presentation-time fields are reset.
  public init(snoozed row: PendingRow, record: DeliveredNotification, plan: FirePlan, now: Instant, sound: SoundResolution?, note: String = "") {
    key = row.key
    revision = row.revision
    next = nil
    finished = false
    at = now
    var missed = false
    if case .deliver(let late) = plan.delivery { missed = late }
    var again = DeliveredNotification(request: record.request, delivered: now, due: row.key.due, missed: missed, sound: sound,
                                      category: record.category)
    again.push = record.push
    again.snoozeCount = row.pending.snoozeCount
    delivery = .deliver(again, note: note)
  }

  public enum Outcome: MutationOutcome {
    /// The row was no longer the one planned from; nothing changed.
    case stale
    /// `delivered` is nil for a skipped fire; `next` is the key of a repeating request.
    case fired(events: [Event], delivered: DeliveredNotification?, next: ScheduleKey?, discardedFiles: [String])

    public var events: [Event] {
      if case .fired(let events, _, _, _) = self { return events }
      return []
    }

    public var discardedFiles: [String] {
      if case .fired(_, _, _, let files) = self { return files }
      return []
    }
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    if key.snoozed { return try applySnoozed(in: t) }
    guard try t.isCurrent(key, revision) else { return .stale }
    var events: [Event] = []
    var delivered: DeliveredNotification?
    switch delivery {
    case .deliver(let planned, let note):
      let record = try t.withCategorySnapshot(planned, app: key.app)
      try t.storeDelivered(record, app: key.app)
      try t.store.deliverAttachments(app: key.app, identifier: key.identifier, db: t.db)
      delivered = record
      let event = Event(at: record.delivered, kind: .delivered, identifiers: [key.identifier], delivered: record, note: note)
      events.append(try t.append(event, app: key.app))
      if let badge, let changed = try t.setBadge(badge, app: key.app, at: record.delivered, identifiers: [key.identifier]) {
        events.append(changed)
      }
    case .skip(let note):
      let event = Event(at: at, kind: .missedSkipped, identifiers: [key.identifier], note: note)
      events.append(try t.append(event, app: key.app))
    }
    var nextKey: ScheduleKey?
    if let next {
      try t.db.cachedStatement(sql: """
        UPDATE pending SET next_fire = ?, fire_count = fire_count + 1 WHERE app = ? AND identifier = ?
        """).execute(arguments: [next.unixMillis, key.app, key.identifier])
      nextKey = ScheduleKey(due: next, app: key.app, identifier: key.identifier)
    } else {
      _ = try t.delete(.pending, app: key.app, identifier: key.identifier)
      try t.store.releaseAttachments(.pending, app: key.app, identifier: key.identifier, db: t.db)
      if finished {
        events.append(try t.append(Event(at: at, kind: .pendingFinished, identifiers: [key.identifier],
                                         note: "the last fire of a repeating request"), app: key.app))
      }
    }
    let discarded = try t.store.collectAttachments(app: key.app, identifier: key.identifier, db: t.db)
    return .fired(events: events, delivered: delivered, next: nextKey, discardedFiles: discarded)
  }
}

extension Fire {
  /// A snoozed notification comes back.
  private func applySnoozed(in t: WriteTransaction) throws -> Outcome {
    guard try t.isCurrentSnooze(key, revision) else { return .stale }
    guard case .deliver(let planned, let note) = delivery else { return .stale }
    let record = try t.withCategorySnapshot(planned, app: key.app)
    try t.storeDelivered(record, app: key.app)
    try t.store.unsnoozeAttachments(app: key.app, identifier: key.identifier, db: t.db)
    _ = try t.delete(.snoozed, app: key.app, identifier: key.identifier)
    var events = [try t.append(Event(at: record.delivered, kind: .delivered, identifiers: [key.identifier], delivered: record, note: note),
                               app: key.app)]
    if let badge, let changed = try t.setBadge(badge, app: key.app, at: record.delivered, identifiers: [key.identifier]) {
      events.append(changed)
    }
    let discarded = try t.store.collectAttachments(app: key.app, identifier: key.identifier, db: t.db)
    return .fired(events: events, delivered: record, next: nil, discardedFiles: discarded)
  }
}
