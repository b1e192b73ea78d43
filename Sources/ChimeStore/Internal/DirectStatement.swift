import GRDB
internal import GRDBSQLite

/// One of GRDB's cached statements run with sqlite3 calls: bind, step, reset. For the few
/// statements every add runs inside the writer's transaction, where GRDB's `execute` and
/// `fetchOne` cost more than SQLite's own work: arguments boxed as `DatabaseValueConvertible`
/// existentials, a `DatabaseValue` and a `Data` copy per value, a statement-cache lookup that
/// hashes the SQL text, observer hooks, a row cursor (a third of the store's instructions per
/// add: bench/NOTES.md).
///
/// GRDB prepares the statement, keeps it and finalizes it with its connection; each use here
/// leaves it reset with its bindings cleared, as GRDB expects to find it. Errors are GRDB's
/// `DatabaseError` with SQLite's extended result code, as `execute` would throw them.
struct DirectStatement {
  private let statement: Statement
  private let connection: OpaquePointer

  init(_ db: Database, _ sql: String) throws {
    statement = try db.cachedStatement(sql: sql)
    guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the connection is closed") }
    self.connection = connection
  }

  private var handle: OpaquePointer { statement.sqliteStatement }

  /// Binds `values` (1-based, in order), steps once and resets.
  func execute(_ values: [Value] = []) throws {
    _ = try fetchOne(values) { _ in () }
  }

  /// Binds `values` (1-based, in order), steps once, hands the row (if the step gave one) to
  /// `row`, and resets. Text and blobs are copied by SQLite for the step.
  func fetchOne<T>(_ values: [Value], row: (Row) throws -> T) throws -> T? {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .integer(let n): code = sqlite3_bind_int64(handle, index, n)
      case .text(var s):
        // Its UTF-8 length, not up to a NUL: an identifier holding one is stored whole, as
        // GRDB stored it (cut at the NUL it could collide with another).
        code = s.withUTF8 { utf8 in
          utf8.withMemoryRebound(to: CChar.self) { text in
            // The empty string's view may have no storage, and a NULL pointer would bind NULL.
            guard let start = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
            return sqlite3_bind_text(handle, index, start, Int32(text.count), sqliteTransient)
          }
        }
      case .blob(let bytes) where bytes.isEmpty:
        code = sqlite3_bind_zeroblob(handle, index, 0)  // a NULL pointer would bind NULL
      case .blob(let bytes):
        code = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
      }
      guard code == SQLITE_OK else { throw error(code) }
    }
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return try row(Row(handle: handle))
    case SQLITE_DONE: return nil
    case let code: throw error(code)
    }
  }

  private func error(_ code: Int32) -> DatabaseError {
    DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                  message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
  }

  enum Value {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
  }

  /// The row a step gave, valid until the statement is reset.
  struct Row {
    fileprivate let handle: OpaquePointer
    /// The integer in `column`, nil for NULL; any other type is a damaged or hand-edited cell
    /// (SQLite keeps whatever it is given) and throws `Unreadable(what)`, as `Row.decode` would.
    func integer(_ column: Int32, _ what: String) throws -> Int64? {
      switch sqlite3_column_type(handle, column) {
      case SQLITE_INTEGER: return sqlite3_column_int64(handle, column)
      case SQLITE_NULL: return nil
      default: throw StoreError.Unreadable(what: what, cause: DatabaseError(resultCode: .SQLITE_MISMATCH, message: "not an integer"))
      }
    }
  }
}

/// SQLITE_TRANSIENT: SQLite copies the value before `sqlite3_bind_*` returns.
private let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)
