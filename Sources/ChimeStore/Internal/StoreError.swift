import ChimeCore
import Logging

/// Turns what SQLite, row decoding and the JSON coders throw into `ChimeError`s. The cause (SQL,
/// result code, message) goes to the log only.
enum StoreError {
  enum Access: String {
    case open, read, write
  }

  /// The database is full (or its size limit was reached).
  static let full = ChimeError(.storeFull, "the notification store is full")
  static let closed = ChimeError(.storeClosed, "the notification store is closed")

  static func unavailable(_ access: Access) -> ChimeError {
    switch access {
    case .open: ChimeError(.storeUnavailable, "the notification store cannot be opened")
    case .read: ChimeError(.storeReadFailed, "the notification store could not be read")
    case .write: ChimeError(.storeWriteFailed, "the change could not be saved")
    }
  }

  static func corrupt(_ what: String) -> ChimeError {
    ChimeError(.storeCorrupt, "a stored \(what) could not be read")
  }

  /// A stored record that does not decode: a cell of another type than its column's (SQLite
  /// keeps whatever a damaged or hand-edited store holds, whatever the column's declared type or
  /// NOT NULL) or a body that is not its message. `map` logs the cause and answers
  /// `corrupt(what)`.
  struct Unreadable: Error {
    let what: String
    let cause: any Error
  }

  /// Runs `decode` (reads one row's cells with `Row.decode`, never the subscripts, which trap
  /// on a cell of another type) and turns its failure into `Unreadable(what)`. SQLite's own
  /// errors pass through to keep their mapping.
  static func decoding<T>(_ what: String, _ decode: () throws -> T) throws -> T {
    do {
      return try decode()
    } catch let error as DatabaseError {
      throw error
    } catch let error as Unreadable {
      throw error
    } catch {
      throw Unreadable(what: what, cause: error)
    }
  }

  /// True for SQLite errors that end the statement but leave the transaction usable, so a
  /// mutation that hits one fails alone (its savepoint is rolled back).
  static func isStatementLocal(_ error: DatabaseError) -> Bool {
    switch error.resultCode {
    case .SQLITE_CONSTRAINT, .SQLITE_TOOBIG, .SQLITE_MISMATCH, .SQLITE_RANGE: true
    default: false
    }
  }

  /// Maps `error` to a status and logs the cause.
  static func map(_ error: any Error, _ access: Access, logger: Logger, context: @autoclosure () -> String) -> ChimeError {
    if let error = error as? ChimeError { return error }
    if let error = error as? Unreadable {
      logger.error("unreadable stored \(error.what)", metadata: ["context": "\(context())", "cause": "\(String(reflecting: error.cause))"])
      return corrupt(error.what)
    }
    // Only shutdown interrupts (`ChimeDatabase.interruptReads`): a read it stopped is a read
    // of a store that is closing, not a failure worth an error in the log.
    if let error = error as? DatabaseError, error.resultCode == .SQLITE_INTERRUPT { return closed }
    guard let error = error as? DatabaseError else {
      logger.error("store \(access.rawValue) failed", metadata: ["context": "\(context())", "cause": "\(String(reflecting: error))"])
      if error is DecodingError || error is RowDecodingError { return corrupt("record") }
      return .internal()
    }
    logger.error("store \(access.rawValue) failed", metadata: [
      "context": "\(context())",
      "sqlite.code": "\(error.extendedResultCode.rawValue)",
      "cause": "\(error)",
    ])
    switch error.resultCode {
    case .SQLITE_FULL:
      return full
    case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_NOMEM, .SQLITE_READONLY,
         .SQLITE_PERM, .SQLITE_PROTOCOL, .SQLITE_INTERRUPT, .SQLITE_ABORT:
      return unavailable(access)
    case .SQLITE_CORRUPT, .SQLITE_NOTADB:
      return access == .open ? ChimeError(.storeDamaged, "the notification store is damaged") : corrupt("record")
    default:
      return access == .open ? ChimeError(.storeUnavailable, "the notification store cannot be opened") : .internal()
    }
  }
}
