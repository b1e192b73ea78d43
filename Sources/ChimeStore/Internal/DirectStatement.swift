internal import CSQLite

/// One of the connection's cached statements run with sqlite3 calls: bind, step, reset. For the
/// few statements every add runs inside the writer's transaction: values bound without boxing
/// each as an existential (`StatementArguments`), the one integer read without a `Row`.
///
/// The connection prepares the statement, keeps it and finalizes it when it closes; each use
/// here leaves it reset with its bindings cleared. Errors are `DatabaseError`s with SQLite's
/// extended result code, as `execute` throws them.
struct DirectStatement {
  private let statement: Statement
  private let connection: OpaquePointer

  init(_ db: Database, _ sql: String) throws {
    statement = try db.cachedStatement(sql: sql)
    connection = db.sqliteConnection
  }

  private var handle: OpaquePointer { statement.handle }

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
      case .text(let s): code = s.bind(to: handle, at: index)
      case .blob(let bytes): code = bytes.bind(to: handle, at: index)
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
    DatabaseError(code: code, connection: connection, sql: statement.sql)
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
