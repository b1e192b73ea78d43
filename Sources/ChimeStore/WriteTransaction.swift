import ChimeCore
import ChimeRecords

/// The open write transaction a batch's mutations apply in. Only ChimeStore can use it: its
/// members are the row operations the mutations are made of.
public final class WriteTransaction {
  let db: Database
  let store: ChimeDatabase
  var codec: RecordCodec { store.codec }
  /// The cursor of the last event a mutation appended (the newest: cursors only grow), nil
  /// when none did (a mutation rolled back gives its appends back). Retention runs before the
  /// commit when one did.
  var newestCursor: Int64?
  /// Set while a calendar scan applies what it found: its own withdrawals are not the user's
  /// dismissals, and nothing of them is written back into the items.
  var applyingCalendarScan = false
  /// Per app, pending rows inserted less those deleted in this transaction so far: written to
  /// `app_pending` before the commit (`writePendingCounts`). A mutation rolled back gives its
  /// changes back. `stored` is what `app_pending` held when the transaction began, read the
  /// first time an add of the app needs it (nil until then): once per app and batch, not once
  /// per add. A batch holds a few apps: looked up in order, which is cheaper than hashing the
  /// app id at every add.
  var pendingCountChanges: [(app: String, stored: Int64?, change: Int64)] = []

  init(db: Database, store: ChimeDatabase) {
    self.db = db
    self.store = store
  }

  /// The statements every add runs, run with sqlite3 calls (`DirectStatement`).
  enum DirectSQL: Int, CaseIterable {
    case savepoint, rollbackToSavepoint, releaseSavepoint
    /// A pending row for a new (app, identifier): no change (`changesCount` 0) when the
    /// identifier is pending already (then `replacePending`). Telling the two apart by the
    /// insert itself spares every add a lookup of its own (8.6k instructions of a 96.7k add);
    /// not by `RETURNING`, whose ephemeral table cost more than the lookup.
    case insertNewPending
    case replacePending
    /// How many pending requests the app held when the transaction began.
    case appPendingCount
    case addPendingCount
    case insertEvent
    /// An event with its cursor given: the transaction's newest plus one (`EventLog.append`).
    case insertEventAt
    case oldestEvent

    var sql: String {
      switch self {
      case .savepoint: "SAVEPOINT mutation"
      case .rollbackToSavepoint: "ROLLBACK TO SAVEPOINT mutation"
      case .releaseSavepoint: "RELEASE SAVEPOINT mutation"
      case .insertNewPending: """
        INSERT INTO pending (app, identifier, next_fire, added, fire_count, body, floating) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (app, identifier) DO NOTHING
        """
      case .replacePending: """
        UPDATE pending SET next_fire = ?3, added = ?4, fire_count = ?5, body = ?6, floating = ?7 WHERE app = ?1 AND identifier = ?2
        """
      case .appPendingCount: "SELECT count FROM app_pending WHERE app = ?"
      // The inserted row is checked before the conflict is, so a decrease inserts 0 (for an app
      // without a row, as the trigger's UPDATE changed nothing) and updates by ?2.
      case .addPendingCount: """
        INSERT INTO app_pending (app, count) VALUES (?1, MAX(?2, 0)) ON CONFLICT (app) DO UPDATE SET count = count + ?2
        """
      // The next cursor past both the newest stored and the newest pruned (retention, the
      // only thing that deletes events, keeps the newest and records what it pruned; the v8
      // migration records there an AUTOINCREMENT sequence that ran ahead): never one used before.
      case .insertEvent: """
        INSERT INTO event (cursor, app, at, kind, body) VALUES (MAX(
          COALESCE((SELECT MAX(cursor) FROM event), 0),
          COALESCE((SELECT value FROM meta WHERE key = '\(MetaKey.eventPrunedThrough)'), 0)) + 1, ?, ?, ?, ?)
        """
      case .insertEventAt: "INSERT INTO event (cursor, app, at, kind, body) VALUES (?, ?, ?, ?, ?)"
      case .oldestEvent: "SELECT MIN(cursor) FROM event"
      }
    }
  }

  /// `sql`'s statement, prepared once for the writer's connection and kept by the store (by
  /// index, not by its text in the connection's cache, which builds the text and hashes it once per batch).
  func direct(_ sql: DirectSQL) throws -> DirectStatement {
    try store.writerStatements.statement(sql, db)
  }

  enum Table: String {
    case pending, delivered, snoozed
  }

  static func check(app: String, identifier: String) throws(ChimeError) {
    guard !app.isEmpty else { throw ChimeError(.invalidAppID, "app id is empty", field: "app_id") }
    guard !identifier.isEmpty else {
      throw ChimeError(.invalidIdentifier, "identifier is empty", field: "request.identifier")
    }
  }

  func exists(_ table: Table, app: String, identifier: String) throws -> Bool {
    let select = try db.cachedStatement(sql: "SELECT 1 FROM \(table.rawValue) WHERE app = ? AND identifier = ?")
    return try Row.fetchOne(select, arguments: [app, identifier]) != nil
  }

  /// Deletes one row; true if it existed.
  func delete(_ table: Table, app: String, identifier: String) throws -> Bool {
    try db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE app = ? AND identifier = ?")
      .execute(arguments: [app, identifier])
    let deleted = db.changesCount > 0
    if deleted, table == .pending { countPending(app, -1) }
    return deleted
  }

  /// Records `change` pending rows inserted (or, negative, deleted) for `app`. Every statement
  /// that inserts or deletes `pending` rows says so here.
  func countPending(_ app: String, _ change: Int64) {
    if let i = pendingCountChanges.firstIndex(where: { $0.app == app }) {
      pendingCountChanges[i].change += change
    } else {
      pendingCountChanges.append((app, nil, change))
    }
  }

  /// How many pending requests `app` holds now: what `app_pending` held when the transaction
  /// began (read once per app and transaction) and this transaction's changes so far.
  func heldPending(_ app: String) throws -> Int64 {
    let i = pendingCountChanges.firstIndex { $0.app == app } ?? {
      pendingCountChanges.append((app, nil, 0))
      return pendingCountChanges.count - 1
    }()
    if let stored = pendingCountChanges[i].stored { return stored + pendingCountChanges[i].change }
    let stored = try direct(.appPendingCount).fetchOne([.text(app)]) { row in try row.integer(0, "pending count") ?? 0 } ?? 0
    pendingCountChanges[i].stored = stored
    return stored + pendingCountChanges[i].change
  }

  /// Writes this transaction's pending count changes into `app_pending`: once per app, before
  /// the commit.
  func writePendingCounts() throws {
    for (app, _, change) in pendingCountChanges where change != 0 {
      try direct(.addPendingCount).execute([.text(app), .integer(change)])
    }
    pendingCountChanges.removeAll()
  }

  /// True when the pending row of `key` is still the one `revision` was read from.
  func isCurrent(_ key: ScheduleKey, _ revision: PendingRevision) throws -> Bool {
    let select = try db.cachedStatement(sql: """
      SELECT 1 FROM pending WHERE app = ? AND identifier = ? AND next_fire = ? AND fire_count = ? AND body = ?
      """)
    return try Row.fetchOne(select, arguments: [key.app, key.identifier, key.due.unixMillis, revision.fireCount, revision.body]) != nil
  }

  /// Upserts `delivered`.
  func storeDelivered(_ delivered: DeliveredNotification, app: String) throws {
    let body = codec.encode(delivered)
    try db.cachedStatement(sql: """
      INSERT INTO delivered (app, identifier, delivered_at, due, missed, body, quiet_unsummarized) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET delivered_at = excluded.delivered_at, due = excluded.due,
        missed = excluded.missed, body = excluded.body, quiet_unsummarized = excluded.quiet_unsummarized
      """).execute(arguments: [
        app, delivered.request.identifier, delivered.delivered.unixMillis, delivered.due.unixMillis,
        delivered.missed, body, delivered.quiet ? 1 : 0,
      ])
  }

  /// `delivered` with the snapshot of its category as `app` has it now in this transaction
  /// (none when the content names no category or the app has no such category). Taken at the
  /// delivery's commit, so a `SetCategories` is either wholly before or wholly after it.
  func withCategorySnapshot(_ delivered: DeliveredNotification, app: String) throws -> DeliveredNotification {
    let identifier = delivered.request.content.categoryIdentifier
    guard !identifier.isEmpty else { return delivered }
    var snapshotted = delivered
    snapshotted.category = try ChimeDatabase.category(app: app, identifier: identifier, db: db, codec: codec)
    return snapshotted
  }

  /// Appends `event` to `app`'s log; returns it with its cursor.
  func append(_ event: Event, app: String) throws -> Event {
    let stored = try EventLog.append(event, app: app, transaction: self)
    newestCursor = Int64(stored.cursor)
    // The kind first: most events (every add's) stop at that comparison.
    if stored.kind == .deliveredRemoved || stored.kind == .snoozed, !applyingCalendarScan,
       app.utf8.starts(with: CalendarSource.appIDPrefix.utf8) {
      try queueCalendarWriteBack(stored, app: app)
    }
    return stored
  }

  /// Appends an event already packed (`body`, as `codec.encode` makes it) to `app`'s log and
  /// returns its cursor: for the add's events, which queue no calendar write-back.
  func appendPacked(_ kind: Event.Kind, at: Instant, app: String, body: [UInt8]) throws -> UInt64 {
    let cursor = try EventLog.insert(kind, at: at, app: app, body: body, transaction: self)
    newestCursor = cursor
    return UInt64(cursor)
  }

  /// Releases the pending request's files of a lineage that ends, and collects what nothing holds.
  func endPending(app: String, identifier: String) throws -> [String] {
    try store.releaseAttachments(.pending, app: app, identifier: identifier, db: db)
    return try store.collectAttachments(app: app, identifier: identifier, db: db)
  }
}
