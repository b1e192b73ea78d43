import CSQLite

/// Fills a stopped daemon's store with `copies` more pending requests in seconds (a million
/// real adds at 5k/s would take minutes): copies of the latest stored request of `app`, filed
/// under the app `into` (so `app` keeps room under the per-app limit) with new identifiers,
/// each a millisecond later, in one transaction (the `pending` triggers keep the per-app
/// counts). They are what chimed would have written for the same request added again, so
/// its start-up, window and memory see a store of that size.
enum PendingClone {
  static func fill(database path: String, from app: String, into copiesApp: String, copies: Int) throws {
    guard copies > 0 else { return }
    let sqlite = try BenchSQLite(path: path)
    defer { withExtendedLifetime(sqlite) {} }  // closed after the statement is finalized
    try sqlite.exec("PRAGMA synchronous = FULL")
    try sqlite.exec("BEGIN IMMEDIATE")
    let insert = try sqlite.prepare("""
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
      INSERT INTO pending (app, identifier, next_fire, added, fire_count, body, floating)
      SELECT ?3, 'copy-' || n.i, p.next_fire + n.i, p.added, p.fire_count, p.body, p.floating
      FROM n, (SELECT * FROM pending WHERE app = ?2 ORDER BY next_fire DESC LIMIT 1) AS p
      """)
    defer { sqlite3_finalize(insert) }
    sqlite3_bind_int64(insert, 1, Int64(copies))
    _ = app.withCString { sqlite3_bind_text(insert, 2, $0, -1, BenchSQLite.transient) }
    _ = copiesApp.withCString { sqlite3_bind_text(insert, 3, $0, -1, BenchSQLite.transient) }
    guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchError("sqlite copy: \(sqlite.lastError)") }
    guard sqlite3_changes(sqlite.db) == Int32(copies) else {
      throw BenchError("copied \(sqlite3_changes(sqlite.db)) pending requests, not \(copies) (has \(app) none?)")
    }
    try sqlite.exec("COMMIT")
    try sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)")
  }
}
