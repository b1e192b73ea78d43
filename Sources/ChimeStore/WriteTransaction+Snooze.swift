import ChimeCore
import ChimeRecords

/// Snoozing a delivered notification and its return, as row operations the mutations share
/// (`SnoozeDelivered`, `RecordResponse`, `Fire`).
extension WriteTransaction {
  /// What a snooze wrote: the entry GetPending lists, its schedule key, its `.snoozed` event.
  struct Snoozed {
    var entry: PendingRequest
    var key: ScheduleKey
    var event: Event
  }

  /// Moves `delivered` (the app's delivered row as read in this transaction) to the snoozed
  /// table until `at + duration`, with its files; replaces an earlier snooze of the identifier.
  /// Appends the `.snoozed` event; the caller collects files nothing holds.
  func snooze(_ delivered: DeliveredNotification, app: String, for duration: SnoozeDuration, at: Instant, note: String = "") throws -> Snoozed {
    let identifier = delivered.request.identifier
    let until = at.adding(millis: duration.seconds * 1000)
    let count = delivered.snoozeCount + 1
    try db.cachedStatement(sql: """
      INSERT INTO snoozed (app, identifier, until, snoozed_at, snooze_count, body) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET until = excluded.until, snoozed_at = excluded.snoozed_at,
        snooze_count = excluded.snooze_count, body = excluded.body
      """).execute(arguments: [app, identifier, until.unixMillis, at.unixMillis, count, codec.encode(delivered)])
    _ = try delete(.delivered, app: app, identifier: identifier)
    try store.snoozeAttachments(app: app, identifier: identifier, db: db)
    let entry = ChimeDatabase.snoozedEntry(delivered, until: until, snoozedAt: at, count: count)
    let event = try append(Event(at: at, kind: .snoozed, identifiers: [identifier], pending: entry,
                                 note: note.isEmpty ? "snoozed for \(duration.text)" : note), app: app)
    return Snoozed(entry: entry, key: ScheduleKey(due: until, app: app, identifier: identifier, snoozed: true), event: event)
  }

  /// True when the snoozed row of `key` is still the one `revision` was read from.
  func isCurrentSnooze(_ key: ScheduleKey, _ revision: PendingRevision) throws -> Bool {
    let select = try db.cachedStatement(sql: """
      SELECT 1 FROM snoozed WHERE app = ? AND identifier = ? AND until = ? AND snooze_count = ? AND body = ?
      """)
    return try Row.fetchOne(select, arguments: [key.app, key.identifier, key.due.unixMillis, revision.fireCount, revision.body]) != nil
  }

  /// Deletes the snoozed rows of `identifiers` (nil: all of the app's) and releases their files;
  /// returns the identifiers that were snoozed.
  func cancelSnoozes(app: String, identifiers: [String]?) throws -> [String] {
    if let identifiers {
      var cancelled: [String] = []
      for identifier in identifiers where try delete(.snoozed, app: app, identifier: identifier) {
        cancelled.append(identifier)
        try store.releaseAttachments(.snoozed, app: app, identifier: identifier, db: db)
      }
      return cancelled
    }
    let cancelled = try String.fetchAll(db.cachedStatement(sql: "DELETE FROM snoozed WHERE app = ? RETURNING identifier"), arguments: [app])
    try store.releaseAttachments(.snoozed, app: app, identifier: nil, db: db)
    return cancelled
  }
}

extension ChimeDatabase {
  /// A snoozed notification as GetPending lists it: the delivered request, `nextFire` its return.
  static func snoozedEntry(_ delivered: DeliveredNotification, until: Instant, snoozedAt: Instant, count: Int) -> PendingRequest {
    var entry = PendingRequest(request: delivered.request, nextFire: until, added: snoozedAt, sound: delivered.sound)
    entry.snoozeCount = count
    return entry
  }

  /// Columns until, snooze_count, body, snoozed_at: the listed entry and the delivered record.
  static func snoozed(from row: Row, codec: RecordCodec) throws -> (entry: PendingRequest, delivered: DeliveredNotification) {
    try StoreError.decoding("snoozed notification") {
      let delivered = try codec.decode(DeliveredNotification.self, from: row.decode(atIndex: 2))
      let entry = snoozedEntry(delivered, until: Instant(unixMillis: try row.decode(atIndex: 0)),
                               snoozedAt: Instant(unixMillis: try row.decode(atIndex: 3)), count: try row.decode(atIndex: 1))
      return (entry, delivered)
    }
  }
}
