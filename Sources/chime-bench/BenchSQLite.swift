import CSQLite

/// A SQLite connection opened by the benchmark itself (its floors, the copies of pending
/// requests), through the C API so that nothing of chimed's store code is measured.
final class BenchSQLite {
  let db: OpaquePointer
  /// SQLITE_TRANSIENT: SQLite copies a bound value.
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  init(path: String) throws {
    var db: OpaquePointer?
    // SQLite's own "unix" VFS, named: the store's StoreLoad makes chimed's WAL-gathering VFS
    // this process's default, and the floors measure plain SQLite.
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "unix") == SQLITE_OK, let db else {
      throw BenchError("sqlite3_open \(path) failed")
    }
    self.db = db
  }

  deinit { sqlite3_close(db) }

  func exec(_ sql: String) throws {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
      throw BenchError("sqlite: \(sql.prefix(80)): \(String(cString: sqlite3_errmsg(db)))")
    }
  }

  /// A prepared statement; the caller finalizes it.
  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw BenchError("sqlite prepare: \(String(cString: sqlite3_errmsg(db)))")
    }
    return statement
  }

  var lastError: String { String(cString: sqlite3_errmsg(db)) }
}
