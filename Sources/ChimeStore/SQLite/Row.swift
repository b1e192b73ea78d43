internal import CSQLite

/// One result row. A row of a `RowCursor` reads its statement's current row in place and is
/// valid until the cursor moves; `fetchOne` and `fetchAll` answer copies.
struct Row: CustomStringConvertible {
  private let statement: OpaquePointer?
  private let values: [DatabaseValue]

  /// The row `statement` is on, read in place.
  fileprivate init(borrowing statement: OpaquePointer) {
    self.statement = statement
    values = []
  }

  /// A copy of the row `statement` is on.
  fileprivate init(copying statement: OpaquePointer) {
    self.statement = nil
    values = (0..<sqlite3_column_count(statement)).map { DatabaseValue(statement, $0) }
  }

  var count: Int { statement.map { Int(sqlite3_column_count($0)) } ?? values.count }

  /// The cell at `index` (0-based) as SQLite stores it.
  func value(atIndex index: Int) -> DatabaseValue {
    guard let statement else { return index < values.count ? values[index] : .null }
    guard index < sqlite3_column_count(statement) else { return .null }
    return DatabaseValue(statement, Int32(index))
  }

  /// The cell at `index` as `T`; throws `RowDecodingError` for a cell of another storage class
  /// (or NULL, unless `T` is optional), as a damaged or hand-edited store can hold.
  func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, atIndex index: Int) throws(RowDecodingError) -> T {
    let cell = value(atIndex: index)
    guard let value = T.fromDatabaseValue(cell) else { throw RowDecodingError(column: index, value: cell, type: T.self) }
    return value
  }

  var description: String {
    "[" + (0..<count).map { value(atIndex: $0).description }.joined(separator: ", ") + "]"
  }
}

/// The rows of a statement, stepped one at a time. The statement is reset when the cursor ends,
/// fails or is dropped, so a reader's transaction does not keep a statement in progress.
final class RowCursor {
  private let statement: Statement
  private var done = false

  fileprivate init(_ statement: Statement, arguments: StatementArguments) throws(DatabaseError) {
    self.statement = statement
    try statement.bind(arguments)
  }

  deinit {
    if !done { statement.reset() }
  }

  /// The next row (valid until the next call), or nil at the end.
  func next() throws(DatabaseError) -> Row? {
    guard !done else { return nil }
    do {
      if try statement.step() { return Row(borrowing: statement.handle) }
    } catch {
      done = true
      throw error
    }
    done = true
    statement.reset()
    return nil
  }
}

extension Row {
  static func fetchCursor(_ statement: Statement, arguments: StatementArguments = []) throws(DatabaseError) -> RowCursor {
    try RowCursor(statement, arguments: arguments)
  }

  static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws(DatabaseError) -> [Row] {
    try statement.bind(arguments)
    defer { statement.reset() }
    var rows: [Row] = []
    while try statement.step() { rows.append(Row(copying: statement.handle)) }
    return rows
  }

  static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws(DatabaseError) -> Row? {
    try statement.bind(arguments)
    defer { statement.reset() }
    return try statement.step() ? Row(copying: statement.handle) : nil
  }

  static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws(DatabaseError) -> [Row] {
    try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
  }

  static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws(DatabaseError) -> Row? {
    try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
  }
}

extension DatabaseValueConvertible {
  /// The first column of the first row; nil when there is no row or the cell is NULL.
  static func fetchOne(_ statement: Statement, arguments: StatementArguments = []) throws -> Self? {
    guard let row = try Row.fetchOne(statement, arguments: arguments) else { return nil }
    return try row.decode(Self?.self, atIndex: 0)
  }

  /// The first column of every row.
  static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws -> [Self] {
    let rows = try Row.fetchCursor(statement, arguments: arguments)
    var values: [Self] = []
    while let row = try rows.next() { values.append(try row.decode(Self.self, atIndex: 0)) }
    return values
  }

  static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
    try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
  }

  static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
    try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
  }
}
