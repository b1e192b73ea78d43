internal import CSQLite

/// One cell as SQLite stores it (its storage class, not the column's declared type).
enum DatabaseValue: Sendable, Equatable, CustomStringConvertible {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// Column `index` of the row `statement` is on. Text and blobs are copied whole (a NUL inside
  /// text is kept, as binding keeps it).
  init(_ statement: OpaquePointer, _ index: Int32) {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_NULL:
      self = .null
    case SQLITE_INTEGER:
      self = .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT:
      self = .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      // The pointer first, then its length (SQLite's order: the length is of that form).
      let text = sqlite3_column_text(statement, index)
      let count = Int(sqlite3_column_bytes(statement, index))
      self = .text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
    default:
      let bytes = sqlite3_column_blob(statement, index)
      let count = Int(sqlite3_column_bytes(statement, index))
      self = .blob(bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    }
  }

  var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let n): "\(n)"
    case .real(let d): "\(d)"
    case .text(let s): String(reflecting: s)
    case .blob(let d): "<\(d.count) bytes>"
    }
  }
}

/// A Swift type a statement binds and a row's cell converts to. Conversions are SQLite's
/// storage classes only: an integer column holding text does not convert to an integer.
protocol DatabaseValueConvertible {
  /// Binds `self` to parameter `index` (1-based) of `statement`; SQLite's result code.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32
  /// The value of `cell`, or nil when its storage class does not convert (NULL does not,
  /// except to an optional).
  static func fromDatabaseValue(_ cell: DatabaseValue) -> Self?
}

/// SQLITE_TRANSIENT: SQLite copies the value before `sqlite3_bind_*` returns.
let sqliteTransient = unsafeBitCast(Int(-1), to: sqlite3_destructor_type.self)

extension Int64: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> Int64? {
    switch cell {
    case .integer(let n): n
    case .real(let d): Int64(exactly: d)
    default: nil
    }
  }
}

extension Int: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> Int? { Int64.fromDatabaseValue(cell).flatMap { Int(exactly: $0) } }
}

extension Int32: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> Int32? { Int64.fromDatabaseValue(cell).flatMap { Int32(exactly: $0) } }
}

extension UInt8: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, Int64(self)) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> UInt8? { Int64.fromDatabaseValue(cell).flatMap { UInt8(exactly: $0) } }
}

extension Bool: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_int64(statement, index, self ? 1 : 0) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> Bool? {
    switch cell {
    case .integer(let n): n != 0
    case .real(let d): d != 0
    default: nil
    }
  }
}

extension Double: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_double(statement, index, self) }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> Double? {
    switch cell {
    case .integer(let n): Double(n)
    case .real(let d): d
    default: nil
    }
  }
}

extension String: DatabaseValueConvertible {
  /// Its UTF-8 length, not up to a NUL: a string holding one is stored whole.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    var text = self
    return text.withUTF8 { utf8 in
      utf8.withMemoryRebound(to: CChar.self) { chars in
        // The empty string's view may have no storage, and a NULL pointer would bind NULL.
        guard let start = chars.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, sqliteTransient) }
        return sqlite3_bind_text(statement, index, start, Int32(chars.count), sqliteTransient)
      }
    }
  }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> String? {
    switch cell {
    case .text(let s): s
    case .blob(let d): String(validating: d, as: UTF8.self)
    default: nil
    }
  }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    // A NULL pointer would bind NULL: an empty blob is a zero-length blob.
    guard !isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
    return withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
  }

  static func fromDatabaseValue(_ cell: DatabaseValue) -> [UInt8]? {
    switch cell {
    case .blob(let bytes): bytes
    case .text(let s): Array(s.utf8)
    default: nil
    }
  }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    guard let self else { return sqlite3_bind_null(statement, index) }
    return self.bind(to: statement, at: index)
  }

  /// NULL is nil; any other cell converts as `Wrapped` (nil, a mismatch, when it does not).
  static func fromDatabaseValue(_ cell: DatabaseValue) -> Wrapped?? {
    if case .null = cell { return .some(nil) }
    return Wrapped.fromDatabaseValue(cell).map { .some($0) }
  }
}

/// The values a statement binds, in order (`?`, `?1` ...): `[app, identifier, 3]`.
struct StatementArguments: ExpressibleByArrayLiteral {
  var values: [(any DatabaseValueConvertible)?]

  init(_ values: [(any DatabaseValueConvertible)?]) { self.values = values }

  init(arrayLiteral elements: (any DatabaseValueConvertible)?...) { values = elements }
}
