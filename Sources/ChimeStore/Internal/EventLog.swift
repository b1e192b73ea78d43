import ChimeCore
import ChimeRecords

/// The `event` table: appended in the transaction of the change it describes, pruned to the
/// retention bound, replayed by cursor.
enum EventLog {
  /// Stores `event` for `app` and returns it with its cursor.
  static func append(_ event: Event, app: String, transaction: WriteTransaction) throws -> Event {
    let body = transaction.codec.encode(event)
    var stored = event
    stored.cursor = UInt64(try insert(event.kind, at: event.at, app: app, body: body, transaction: transaction))
    return stored
  }

  /// Stores an event row whose body is packed already; returns its cursor.
  static func insert(_ kind: Event.Kind, at: Instant, app: String, body: [UInt8], transaction: WriteTransaction) throws -> Int64 {
    if let newest = transaction.newestCursor {
      // Past the transaction's first event the next cursor is one past the one before: that
      // one was past everything stored and pruned, and nothing else appends. Two subqueries
      // less per event (about 5,500 instructions of each add in a batch, callgrind).
      try transaction.direct(.insertEventAt).execute([.integer(newest + 1), .text(app), .integer(at.unixMillis),
                                                      .integer(Int64(kind.rawValue)), .blob(body)])
    } else {
      try transaction.direct(.insertEvent).execute([.text(app), .integer(at.unixMillis), .integer(Int64(kind.rawValue)), .blob(body)])
    }
    return transaction.db.lastInsertedRowID
  }

  /// Deletes the oldest events so that at most `retention` cursors stay at or below `newest`
  /// (the transaction's last appended cursor), recording per app (and overall) the highest
  /// cursor pruned. O(log n + pruned); when nothing is due, one index lookup.
  ///
  /// It waits until more than `slack(retention)` events are past the bound: a full log pruned
  /// at every commit made every add and fire also rewrite the log's first page, the app's
  /// pruned mark and the overall one (three WAL frames a commit). In steps, one commit in about
  /// `retention / 64` deletes that many events at once.
  static func prune(retention: Int, newest: Int64, transaction: WriteTransaction) throws {
    let db = transaction.db
    let cutoff = newest - Int64(retention)
    guard cutoff > 0,
          let oldest = try transaction.direct(.oldestEvent).fetchOne([], row: { try $0.integer(0, "event cursor") }) ?? nil,
          oldest <= cutoff - Int64(slack(retention))
    else { return }
    try db.cachedStatement(sql: Queries.recordPruned).execute(arguments: [cutoff])
    try db.cachedStatement(sql: "DELETE FROM event WHERE cursor <= ?").execute(arguments: [cutoff])
    try db.cachedStatement(sql: """
      INSERT INTO meta (key, value) VALUES (?, ?)
      ON CONFLICT (key) DO UPDATE SET value = MAX(value, excluded.value)
      """).execute(arguments: [MetaKey.eventPrunedThrough, cutoff])
  }

  /// How many events past the retention bound wait for the next step of pruning: none below
  /// 64 (a small log is kept exact), else a sixty-fourth.
  static func slack(_ retention: Int) -> Int { retention / 64 }

  /// Events of `app` with cursor > `after`, ascending, at most `limit`, preceded by a
  /// synthetic `.eventsLost` (cursor 0) when retention pruned some of the app's events after
  /// `after`.
  static func events(app: String, after: UInt64, limit: Int, db: Database, codec: RecordCodec) throws -> [Event] {
    let after = Int64(clamping: after)
    var events: [Event] = []
    if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT through, at FROM event_pruned WHERE app = ?"), arguments: [app]) {
      let (through, at) = try StoreError.decoding("event") { (try row.decode(Int64.self, atIndex: 0), try row.decode(Int64.self, atIndex: 1)) }
      if after < through {
        events.append(Event(cursor: 0, at: Instant(unixMillis: at), kind: .eventsLost,
                            note: "events up to cursor \(through) were pruned by retention"))
      }
    }
    guard limit > 0 else { return events }
    let select = try db.cachedStatement(sql: Queries.eventsAfter)
    let rows = try Row.fetchCursor(select, arguments: [app, after, limit])
    while let row = try rows.next() {
      events.append(try StoreError.decoding("event") {
        let cursor: Int64 = try row.decode(atIndex: 0)
        guard let kind = Event.Kind(rawValue: try row.decode(atIndex: 2)) else { throw StoreError.corrupt("event") }
        // Cursor, instant and kind are columns as well as in the body: the columns win.
        var event = try codec.decode(Event.self, from: row.decode(atIndex: 3))
        event.cursor = UInt64(cursor)
        event.at = Instant(unixMillis: try row.decode(atIndex: 1))
        event.kind = kind
        return event
      })
    }
    return events
  }
}
