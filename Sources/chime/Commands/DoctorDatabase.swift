import ChimeSystem

/// `chime doctor`'s look into chime.db, read-only: `PRAGMA integrity_check` and the names of the
/// applied migrations, through the SQLite C library loaded with `dlopen` when doctor runs.
///
/// Not GRDB, and SQLite not linked: every `chime` command would otherwise load libsqlite3 at
/// start and carry GRDB's code and its ~500 protocol conformances, which the Swift runtime scans
/// on each `as?` cast, making every command slower and larger (bench/NOTES.md). Doctor needs
/// two queries: the seven C calls it makes are bound here.
enum DoctorDatabase {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// What the two queries answered.
  struct Report {
    var integrity: [String]
    var migrations: [String]
    /// Bytes per page (0 when SQLite did not say).
    var pageSize: Int
  }

  /// The page size chimed gives a new store (ChimeStore's `ChimeDatabase.pageSize`, which this
  /// process does not link); a store with larger pages was made before and still works.
  static let currentPageSize = 2048

  /// The library chimed links (libsqlite3-0's soname).
  static let libraryName = "libsqlite3.so.0"

  static func inspect(path: String) throws(Failure) -> Report {
    let sqlite = try SQLiteLibrary.load()
    var db: OpaquePointer?
    let opened = sqlite.open(path, &db, SQLiteLibrary.openReadOnly, nil)
    defer { _ = sqlite.close(db) }
    guard opened == SQLiteLibrary.ok, let db else {
      throw Failure(description: sqlite.message(db, code: opened))
    }
    let integrity = try sqlite.strings(db, "PRAGMA integrity_check")
    // A store chimed has not migrated yet has no grdb_migrations table: no migrations.
    let migrations = (try? sqlite.strings(db, "SELECT identifier FROM grdb_migrations")) ?? []
    let pageSize = (try? sqlite.strings(db, "PRAGMA page_size"))?.first.flatMap { Int($0) } ?? 0
    return Report(integrity: integrity, migrations: migrations, pageSize: pageSize)
  }
}

/// The few functions of the SQLite C API doctor calls, looked up in the library by name.
private struct SQLiteLibrary {
  typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) -> Int32
  typealias Close = @convention(c) (OpaquePointer?) -> Int32
  typealias Prepare = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
                                      UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
  typealias Step = @convention(c) (OpaquePointer?) -> Int32
  typealias ColumnText = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
  typealias Finalize = @convention(c) (OpaquePointer?) -> Int32
  typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

  // sqlite3.h
  static let ok: Int32 = 0
  static let row: Int32 = 100
  static let done: Int32 = 101
  static let openReadOnly: Int32 = 0x0000_0001

  let open: Open
  let close: Close
  let prepare: Prepare
  let step: Step
  let columnText: ColumnText
  let finalize: Finalize
  let errorMessage: ErrorMessage

  static func load() throws(DoctorDatabase.Failure) -> SQLiteLibrary {
    let library: SharedLibrary
    do throws(SharedLibrary.Failure) {
      library = try SharedLibrary(DoctorDatabase.libraryName)
    } catch {
      throw DoctorDatabase.Failure(description: "cannot load \(DoctorDatabase.libraryName) to read it: \(error)")
    }
    func function<F>(_ name: String, as type: F.Type) throws(DoctorDatabase.Failure) -> F {
      guard let function = library.function(name, as: type) else {
        throw DoctorDatabase.Failure(description: "\(DoctorDatabase.libraryName) has no \(name)")
      }
      return function
    }
    return SQLiteLibrary(open: try function("sqlite3_open_v2", as: Open.self),
                         close: try function("sqlite3_close_v2", as: Close.self),
                         prepare: try function("sqlite3_prepare_v2", as: Prepare.self),
                         step: try function("sqlite3_step", as: Step.self),
                         columnText: try function("sqlite3_column_text", as: ColumnText.self),
                         finalize: try function("sqlite3_finalize", as: Finalize.self),
                         errorMessage: try function("sqlite3_errmsg", as: ErrorMessage.self))
  }

  /// As GRDB words a failure: `SQLite error 26: file is not a database`.
  func message(_ db: OpaquePointer?, code: Int32) -> String {
    let text = db.flatMap { errorMessage($0) }.map { String(cString: $0) } ?? "out of memory"
    return "SQLite error \(code): \(text)"
  }

  /// The first column of every row `sql` returns, as text.
  func strings(_ db: OpaquePointer, _ sql: String) throws(DoctorDatabase.Failure) -> [String] {
    var statement: OpaquePointer?
    let prepared = prepare(db, sql, -1, &statement, nil)
    defer { _ = finalize(statement) }
    guard prepared == Self.ok, let statement else {
      throw DoctorDatabase.Failure(description: message(db, code: prepared) + " - while executing `\(sql)`")
    }
    var values: [String] = []
    while true {
      let stepped = step(statement)
      if stepped == Self.done { return values }
      guard stepped == Self.row else {
        throw DoctorDatabase.Failure(description: message(db, code: stepped) + " - while executing `\(sql)`")
      }
      values.append(columnText(statement, 0).map { String(cString: $0) } ?? "")
    }
  }
}
