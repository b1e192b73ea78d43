internal import CSQLite

/// An SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`).
struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  let rawValue: Int32

  init(rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code of an extended one (its low byte).
  var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

  var description: String { "\(rawValue)" }

  static let SQLITE_OK = ResultCode(rawValue: CSQLite.SQLITE_OK)
  static let SQLITE_ERROR = ResultCode(rawValue: CSQLite.SQLITE_ERROR)
  static let SQLITE_INTERNAL = ResultCode(rawValue: CSQLite.SQLITE_INTERNAL)
  static let SQLITE_PERM = ResultCode(rawValue: CSQLite.SQLITE_PERM)
  static let SQLITE_ABORT = ResultCode(rawValue: CSQLite.SQLITE_ABORT)
  static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
  static let SQLITE_LOCKED = ResultCode(rawValue: CSQLite.SQLITE_LOCKED)
  static let SQLITE_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_NOMEM)
  static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
  static let SQLITE_INTERRUPT = ResultCode(rawValue: CSQLite.SQLITE_INTERRUPT)
  static let SQLITE_IOERR = ResultCode(rawValue: CSQLite.SQLITE_IOERR)
  static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
  static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
  static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
  static let SQLITE_PROTOCOL = ResultCode(rawValue: CSQLite.SQLITE_PROTOCOL)
  static let SQLITE_SCHEMA = ResultCode(rawValue: CSQLite.SQLITE_SCHEMA)
  static let SQLITE_TOOBIG = ResultCode(rawValue: CSQLite.SQLITE_TOOBIG)
  static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
  static let SQLITE_MISMATCH = ResultCode(rawValue: CSQLite.SQLITE_MISMATCH)
  static let SQLITE_MISUSE = ResultCode(rawValue: CSQLite.SQLITE_MISUSE)
  static let SQLITE_RANGE = ResultCode(rawValue: CSQLite.SQLITE_RANGE)
  static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
  static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (3 << 8))
  static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (8 << 8))
  static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (6 << 8))
}

/// An error SQLite answered: its extended result code, its message and the SQL it ran.
/// Described as `SQLite error 19: UNIQUE constraint failed: t.k - while executing `...``.
struct DatabaseError: Error, CustomStringConvertible {
  let extendedResultCode: ResultCode
  let message: String?
  let sql: String?

  /// `resultCode` may be extended; `resultCode` answers its primary code.
  init(resultCode: ResultCode, message: String? = nil, sql: String? = nil) {
    extendedResultCode = resultCode
    self.message = message
    self.sql = sql
  }

  /// The connection's last error (`code`'s extended code and message), for `sql`.
  init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
    // The connection's extended code when it says the same failure; `code` alone otherwise
    // (a connection that could not be allocated, an error that left no trace on it).
    var extended = code
    var message: String?
    if let connection {
      let last = sqlite3_extended_errcode(connection)
      if last & 0xFF == code & 0xFF { extended = last }
      message = String(cString: sqlite3_errmsg(connection))
    }
    self.init(resultCode: ResultCode(rawValue: extended), message: message ?? String(cString: sqlite3_errstr(code)), sql: sql)
  }

  /// The primary result code.
  var resultCode: ResultCode { extendedResultCode.primaryResultCode }

  var description: String {
    var text = "SQLite error \(extendedResultCode.rawValue)"
    if let message { text += ": \(message)" }
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }
}

/// A row's cell that is not of the type asked for (a damaged or hand-edited store: SQLite keeps
/// whatever it is given, whatever the column's declared type or NOT NULL).
struct RowDecodingError: Error, CustomStringConvertible {
  let column: Int
  let value: DatabaseValue
  let type: Any.Type

  var description: String { "could not decode \(value) as \(type) at column \(column)" }
}
