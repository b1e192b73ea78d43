internal import CSQLite

/// One SQLite connection, used by one thread at a time (its pool or queue sees to that; it is
/// opened without SQLite's own mutex). Keeps the statements it prepared by their SQL.
final class Database {
  let sqliteConnection: OpaquePointer
  /// Opened read-only (a pool's readers, a check before opening the store).
  let readonly: Bool
  private var statements: [String: Statement] = [:]
  /// BEGIN, COMMIT, ROLLBACK: prepared once, not looked up by their text.
  private var transactionStatements = [Statement?](repeating: nil, count: TransactionStatement.allCases.count)
  private var closed = false

  /// Frees what SQLite can of this connection's memory (its unused cache pages). Only by
  /// the thread that holds the connection.
  func releaseMemory() { _ = sqlite3_db_release_memory(sqliteConnection) }

  /// How long a statement waits for a lock another connection holds before SQLITE_BUSY.
  static let busyTimeoutMillis: Int32 = 5000

  /// Opens `path` (an SQLite URI is accepted: `file:...?vfs=...`), creating it unless `readonly`.
  init(path: String, readonly: Bool = false) throws(DatabaseError) {
    SQLiteProcess.configure()
    var connection: OpaquePointer?
    let flags = (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = DatabaseError(code: code, connection: connection)
      sqlite3_close_v2(connection)
      throw error
    }
    sqliteConnection = connection
    self.readonly = readonly
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, Self.busyTimeoutMillis)
    do {
      // SQLite reads the file's header only at the first statement: a file that is not a
      // database is refused here, at open, rather than at the first read.
      _ = try Row.fetchOne(self, sql: "SELECT * FROM sqlite_schema LIMIT 1")
    } catch {
      close()
      throw error
    }
  }

  deinit {
    close()
  }

  /// Finalizes its statements and closes the connection (once).
  func close() {
    guard !closed else { return }
    closed = true
    for statement in statements.values { statement.finalize() }
    for statement in transactionStatements { statement?.finalize() }
    statements = [:]
    transactionStatements = transactionStatements.map { _ in nil }
    // A statement still referenced elsewhere keeps the connection as a zombie until it goes.
    sqlite3_close_v2(sqliteConnection)
  }

  /// The statement of `sql`, prepared on first use and kept for the connection's life.
  func cachedStatement(sql: String) throws(DatabaseError) -> Statement {
    if let statement = statements[sql] { return statement }
    let statement = try Statement(sqliteConnection, sql: sql, persistent: true)
    statements[sql] = statement
    return statement
  }

  /// A new statement of `sql` (the first statement in it), not kept.
  func makeStatement(sql: String) throws(DatabaseError) -> Statement {
    try Statement(sqliteConnection, sql: sql, persistent: false)
  }

  /// Runs every statement of `sql` in order, each taking its parameters' values from
  /// `arguments` in turn; all of them must be used.
  func execute(sql: String, arguments: StatementArguments = []) throws(DatabaseError) {
    var remaining = arguments.values[...]
    try sql.utf8CString.withUnsafeBufferPointer { (buffer) throws(DatabaseError) in
      guard var start = buffer.baseAddress else { return }
      while start.pointee != 0 {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(sqliteConnection, start, -1, &statement, &tail)
        guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: sqliteConnection, sql: sql) }
        guard let statement else { break }  // only whitespace or comments were left
        defer { sqlite3_finalize(statement) }
        let count = Int(sqlite3_bind_parameter_count(statement))
        guard count <= remaining.count else {
          throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments", sql: sql)
        }
        for index in 0..<count {
          let value = remaining[remaining.startIndex + index]
          let code = value.map { $0.bind(to: statement, at: Int32(index + 1)) } ?? sqlite3_bind_null(statement, Int32(index + 1))
          guard code == SQLITE_OK else { throw DatabaseError(code: code, connection: sqliteConnection, sql: sql) }
        }
        remaining = remaining.dropFirst(count)
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW { step = sqlite3_step(statement) }
        guard step == SQLITE_DONE else { throw DatabaseError(code: step, connection: sqliteConnection, sql: sql) }
        guard let tail else { break }
        start = tail
      }
    }
    guard remaining.isEmpty else {
      throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments", sql: sql)
    }
  }

  /// Whether the main database has a table named `name`.
  func tableExists(_ name: String) throws(DatabaseError) -> Bool {
    try Row.fetchOne(self, sql: "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", arguments: [name]) != nil
  }

  /// True between BEGIN and its COMMIT or ROLLBACK (SQLite may roll back by itself on an I/O
  /// or full-disk error).
  var isInsideTransaction: Bool { sqlite3_get_autocommit(sqliteConnection) == 0 }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

  var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }

  /// Stops what runs on the connection at its next step (SQLITE_INTERRUPT); any thread may call it.
  func interrupt() {
    sqlite3_interrupt(sqliteConnection)
  }

  // MARK: Transactions

  enum TransactionCompletion {
    case commit, rollback
  }

  private enum TransactionStatement: Int, CaseIterable {
    case begin, beginDeferred, commit, rollback

    var sql: String {
      switch self {
      case .begin: "BEGIN IMMEDIATE"
      case .beginDeferred: "BEGIN DEFERRED"
      case .commit: "COMMIT"
      case .rollback: "ROLLBACK"
      }
    }
  }

  private func run(_ which: TransactionStatement) throws(DatabaseError) {
    let statement: Statement
    if let prepared = transactionStatements[which.rawValue] {
      statement = prepared
    } else {
      statement = try Statement(sqliteConnection, sql: which.sql, persistent: true)
      transactionStatements[which.rawValue] = statement
    }
    try statement.execute()
  }

  /// BEGIN IMMEDIATE: takes the write lock now (waiting up to the busy timeout), not at the
  /// first write.
  func beginImmediate() throws(DatabaseError) { try run(.begin) }

  func commit() throws(DatabaseError) { try run(.commit) }

  /// Rolls back the transaction, if one is open.
  func rollback() throws(DatabaseError) {
    guard isInsideTransaction else { return }
    try run(.rollback)
  }

  /// `body` in one IMMEDIATE transaction, committed when it answers `.commit`, rolled back when
  /// it answers `.rollback` or throws (its error is rethrown).
  func inTransaction(_ body: () throws -> TransactionCompletion) throws {
    try beginImmediate()
    do {
      switch try body() {
      case .commit:
        // An I/O or full-disk error may have rolled the transaction back already: say so,
        // rather than "cannot commit - no transaction is active".
        guard isInsideTransaction else {
          throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back by an earlier error")
        }
        try commit()
      case .rollback:
        try rollback()
      }
    } catch {
      if isInsideTransaction { try? rollback() }
      throw error
    }
  }

  /// `body` in a DEFERRED transaction, always rolled back: one snapshot for every statement in
  /// it (the first read takes it), nothing written.
  func inSnapshot<T>(_ body: () throws -> T) throws -> T {
    try run(.beginDeferred)
    defer { try? rollback() }
    return try body()
  }
}
