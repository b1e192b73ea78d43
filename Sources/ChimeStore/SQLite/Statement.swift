internal import CSQLite

/// One prepared statement of a connection. SQLite recompiles it by itself after a schema change
/// (`sqlite3_prepare_v3`), so a kept statement stays usable across migrations.
///
/// Used by one thread at a time, as its connection is. Finalized when the last reference goes;
/// the connection finalizes the statements it caches when it closes (`Database.close`).
final class Statement {
  let handle: OpaquePointer
  let sql: String
  private var finalized = false

  /// Prepares the first statement of `sql`; `persistent` for one kept for reuse.
  init(_ connection: OpaquePointer, sql: String, persistent: Bool) throws(DatabaseError) {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(connection, sql, -1, persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &statement, nil)
    guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: connection, sql: sql) }
    guard let statement else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no statement in the SQL", sql: sql) }
    handle = statement
    self.sql = sql
  }

  deinit {
    if !finalized { sqlite3_finalize(handle) }
  }

  /// Finalizes it now (its connection closes); it must not be used after.
  func finalize() {
    guard !finalized else { return }
    finalized = true
    sqlite3_finalize(handle)
  }

  /// Resets it and binds `arguments`, which must name every parameter.
  func bind(_ arguments: StatementArguments) throws(DatabaseError) {
    sqlite3_reset(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard arguments.values.count == expected else {
      throw DatabaseError(resultCode: .SQLITE_MISUSE,
                          message: "wrong number of statement arguments: \(arguments.values.count) for \(expected) parameters", sql: sql)
    }
    for (offset, value) in arguments.values.enumerated() {
      let index = Int32(offset + 1)
      let code = value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index)
      guard code == SQLITE_OK else { throw error(code) }
    }
  }

  /// Steps once: true on a row, false when done. An error leaves the statement reset.
  func step() throws(DatabaseError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let failure = error(code)
      sqlite3_reset(handle)
      throw failure
    }
  }

  /// Binds `arguments`, runs it to its end (rows, as of RETURNING, are skipped) and resets it.
  func execute(arguments: StatementArguments = []) throws(DatabaseError) {
    try bind(arguments)
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  func reset() {
    sqlite3_reset(handle)
  }

  /// The connection's error for `code`, naming this statement's SQL.
  func error(_ code: Int32) -> DatabaseError {
    DatabaseError(code: code, connection: sqlite3_db_handle(handle), sql: sql)
  }
}
