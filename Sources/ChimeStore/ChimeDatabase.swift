public import ChimeCore
import ChimeRecords
import ChimeSystem
public import Logging

/// The durable store: pending requests, delivered notifications and the event log of every
/// app, in one SQLite database (WAL, `synchronous=FULL`).
///
/// Synchronous and thread-safe. Call it off the event loop: one thread at a time commits
/// (`commit(_:)`), any number read concurrently, each read seeing one committed state.
/// Every error is a `ChimeError`; SQL and SQLite causes go to the logger only.
public final class ChimeDatabase: Sendable {
  /// The default number of events kept for replay.
  public static let defaultEventRetention = 50_000

  /// The page size of a new store: 2 KiB, not SQLite's 4 KiB. A lone add dirties about seven
  /// pages (its row, three indexes, the app's count, its event, a split or the header now and
  /// then), each written to the WAL and synced before the add is answered, and the sync takes
  /// longer the more bytes it flushes (bench/NOTES.md has the figures). 2 KiB rather than 1: a
  /// request with a long body or user info (up to 16 KiB) stays in its row instead of
  /// a chain of overflow pages, and the indexes stay a level shallower. SQLite sets the page
  /// size when it creates the file; an existing store keeps its own until `chimed
  /// --compact-store` rebuilds it (`compact(path:)`: VACUUM outside WAL mode, which chimed does
  /// not do to a user's store behind their back).
  public static let pageSize = 2048

  let pool: DatabasePool
  /// The store's file (the pool's path is the URI that opens it through the store's VFS).
  let path: String
  let logger: Logger
  let codec = RecordCodec()
  let eventRetention: Int
  /// Bytes of attachments one app may keep in the store.
  public let attachmentQuota: Int64
  /// Every read and commit passes it, so `close()` never pulls a connection from under one.
  let gate = AccessGate()
  /// The writer connection's direct statements, kept across batches.
  let writerStatements = WriterStatements()
  /// The store was too large to check whole at open: `verifyDeferred()` is still to run.
  public let deferredCheck: Bool

  /// Makes the store's process-wide SQLite settings (SQLiteProcess) now: a program that also
  /// opens SQLite connections of its own (the benchmark's floors) calls it first, so that the
  /// store gets them whichever opens first.
  public static func configureSQLite() { SQLiteProcess.configure() }

  /// Hands back the memory idle readers hold (their page caches), for a daemon gone quiet.
  /// Blocking (it waits for the readers' lock): call off the loop.
  public func releaseIdleMemory() { pool.releaseIdleReaderMemory() }

  /// Opens or creates the database at `path` (creating missing parent directories with mode
  /// 0700 and the file with mode 0600), in WAL mode with `synchronous=FULL`, and migrates it.
  ///
  /// - Parameters:
  ///   - eventRetention: the events kept; older ones are pruned by `commit(_:)` (in steps:
  ///     up to a sixty-fourth more wait for the next, see `EventLog.prune`) and a reader
  ///     resuming before them is told `.eventsLost`.
  ///   - attachmentQuota: bytes of attachment files one app may hold; an `add` or `deliverNow`
  ///     that would pass it fails with RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED`.
  /// - Throws: UNAVAILABLE `STORE_UNAVAILABLE` when the file or its directory cannot be
  ///   created or opened; INTERNAL `STORE_UNAVAILABLE` when it is not a usable Chime database;
  ///   FAILED_PRECONDITION `STORE_UNAVAILABLE` when a newer version of Chime migrated it.
  ///   - checkAtOpenLimit: a store file up to this many bytes gets its full `quick_check`
  ///     before opening; a larger one only a look at its header and schema, the full check
  ///     being left to `verifyDeferred()` (see `deferredCheck`).
  public init(path: String, logger: Logger? = nil, eventRetention: Int = ChimeDatabase.defaultEventRetention,
              attachmentQuota: Int64 = Limits.attachmentQuotaDefault,
              checkAtOpenLimit: Int64 = ChimeDatabase.checkAtOpenLimitBytes) throws(ChimeError) {
    let logger = logger ?? Logger(label: "chime.store", factory: { _ in SwiftLogNoOpLogHandler() })
    self.logger = logger
    self.path = path
    self.attachmentQuota = attachmentQuota
    self.eventRetention = max(eventRetention, 1)
    do {
      try Self.prepareFile(at: path)
    } catch {
      logger.error("cannot create the database file", metadata: ["path": "\(path)", "cause": "\(error)"])
      throw StoreError.unavailable(.open)
    }
    do {
      // Checked read-only first: opening the pool writes (the switch to WAL mode), and nothing
      // may write to a damaged store.
      deferredCheck = try Self.verify(path: path, limit: checkAtOpenLimit, logger: logger)
      // The writer and the readers write the WAL through the store's VFS (WALWriteBuffer).
      pool = try DatabasePool(path: WALWriteBuffer.openPath(path), maximumReaderCount: 4) { db in
        // Takes effect only on a new, empty file (see `pageSize`); an existing store keeps its own.
        try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
        // An answered call must survive power loss: the writer commits with FULL (WAL mode's
        // NORMAL syncs only at checkpoints).
        try db.execute(sql: "PRAGMA synchronous = FULL")
        // Readers page through listings and the scheduler's index; SQLite's default 2 MiB cache
        // each (four of them) was most of what a daemon holding 100,000 requests kept over an
        // empty one. 512 KiB each; a miss is a pread from the kernel's page cache.
        if db.readonly { try db.execute(sql: "PRAGMA cache_size = -512") }
      }
      if try pool.read({ db in try Schema.migrator.hasBeenSuperseded(db) }) {
        logger.error("the database was migrated by a newer version", metadata: ["path": "\(path)"])
        throw ChimeError(.storeTooNew,
                         "the notification store was written by a newer version of chimed")
      }
      try Self.migrate(pool, path: path, logger: logger)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
      logger.error("the store is damaged", metadata: ["path": "\(path)", "cause": "\(error)"])
      throw Self.damaged(path, "\(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
    } catch {
      throw StoreError.map(error, .open, logger: logger, context: "open \(path)")
    }
  }

  /// A damaged store is never repaired or replaced behind the user's back: the message says
  /// what was found and what to do.
  static func damaged(_ path: String, _ what: String) -> ChimeError {
    ChimeError(.storeDamaged, "\(path) is damaged (\(what)); chimed leaves it untouched. Move it aside (mv \(path) \(path).damaged) to start with an empty store, or put back a copy")
  }

  /// Stores up to this size are checked whole before opening (`quick_check` reads every page:
  /// about 0.8 ms per thousand pending requests, so about 100 ms here); larger ones after.
  public static let checkAtOpenLimitBytes: Int64 = 32 << 20

  /// `PRAGMA quick_check` on a read-only connection before anything writes: a damaged store is
  /// refused at start-up, not discovered one read at a time. A store over `limit` bytes gets
  /// only its header and schema read here (a file that is not a database is still refused at
  /// once), so a restart with a million pending requests is not held up for a second; true
  /// then, and the caller runs `verifyDeferred()` once serving. A new, empty file has nothing
  /// to check.
  private static func verify(path: String, limit: Int64, logger: Logger) throws -> Bool {
    let size = FileSystem.status(path)?.size ?? 0
    guard size > 0 else { return false }
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, readonly: true)
    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK {
      // A hot rollback journal: `compact(path:)`, the one time the store leaves WAL mode, was
      // cut short. A read-only connection cannot roll it back; a read-write one does as it
      // opens (SQLite's recovery, before anything can be read), which puts the store back as it
      // was before the rebuild. Then it is checked as any other.
      logger.notice("rolling back an interrupted rebuild of the store", metadata: ["path": "\(path)"])
      try DatabaseQueue(path: path).close()
      queue = try DatabaseQueue(path: path, readonly: true)
    }
    defer { queue.close() }
    guard size <= limit else {
      _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") }
      return true
    }
    try check(queue, path: path, logger: logger)
    return false
  }

  private static func check(_ reader: some DatabaseReader, path: String, logger: Logger) throws {
    let findings = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
    guard findings == ["ok"] else {
      logger.error("the store failed its check", metadata: ["path": "\(path)", "findings": "\(findings)"])
      throw damaged(path, "quick_check: " + findings.joined(separator: "; "))
    }
  }

  /// The check `init` left for later (`deferredCheck`), on a reader while the store serves.
  /// Blocking: call off the loop.
  ///
  /// - Throws: DATA_LOSS `STORE_DAMAGED` saying what was found and what to do; the store's
  ///   read errors.
  public func verifyDeferred() throws(ChimeError) {
    let outcome: Result<Void, any Error>? = gate.pass { Result { try Self.check(pool, path: path, logger: logger) } }
    switch outcome {
    case nil: throw StoreError.closed
    case .success?: return
    case .failure(let error as ChimeError)?: throw error
    case .failure(let error as DatabaseError)? where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB:
      throw Self.damaged(path, error.message ?? "SQLite error \(error.resultCode.rawValue)")
    case .failure(let error)?: throw StoreError.map(error, .read, logger: logger, context: "check of \(path)")
    }
  }

  /// Runs the migrations this build adds. An existing store is first copied with SQLite's
  /// backup API to `PATH.before-migration`, kept until the migration has committed (and left in
  /// place, named in the log, if it fails).
  private static func migrate(_ pool: DatabasePool, path: String, logger: Logger) throws {
    let (applied, complete) = try pool.read { db in
      (try Schema.migrator.appliedMigrations(db), try Schema.migrator.hasCompletedMigrations(db))
    }
    guard !complete else { return }
    guard !applied.isEmpty else { return try Schema.migrator.migrate(pool) }
    let copyPath = path + ".before-migration"
    try? FileSystem.unlink(copyPath)
    // Made 0600 before SQLite opens it, as the store is (`prepareFile`): SQLite would create
    // it with the umask's mode, and the store's directory may be readable by others.
    try FileDescriptor.createNew(copyPath, mode: 0o600).close()
    let copy = try DatabaseQueue(path: copyPath)
    try pool.backup(to: copy)
    copy.close()
    logger.notice("copied the store before migrating it", metadata: ["copy": "\(copyPath)", "from": "\(applied.last ?? "")"])
    do {
      try Schema.migrator.migrate(pool)
    } catch {
      logger.error("the migration failed; the store as it was is kept", metadata: ["copy": "\(copyPath)", "cause": "\(error)"])
      throw error
    }
    try? FileSystem.unlink(copyPath)
  }

  /// Creates missing parent directories (0700) and an empty database file (0600), so the
  /// database and its -wal and -shm files (which copy the file's mode) are private.
  private static func prepareFile(at path: String) throws {
    let directory = FileSystem.directory(of: FileSystem.absolute(path))
    if FileSystem.status(directory) == nil {
      try FileSystem.makeDirectories(directory)
    }
    if FileSystem.lstatus(path) == nil {
      do {
        try FileDescriptor.createNew(path, mode: 0o600).close()
      } catch where error == .fileExists {
        // Created meanwhile by another opener: theirs is as good.
      }
    }
  }

  /// Stops what runs on the store's connections at its next step (`sqlite3_interrupt`): it
  /// fails with STORE_CLOSED and the store stays as it was (a write in progress rolls back).
  /// Shutdown calls it once the writer has drained, so that a deferred check, which runs at
  /// idle priority and can take long on a busy machine, does not hold up `close()`.
  public func interruptReads() {
    pool.interrupt()
  }

  /// A store dropped without `close()` lets go of the writer's statements before its
  /// connections close.
  deinit {
    writerStatements.removeAll()
  }

  /// Closes every connection, waiting for accesses in progress. Later calls fail with
  /// UNAVAILABLE `STORE_CLOSED` (and `commit` answers that for each mutation). Safe to call
  /// while other threads read and commit.
  public func close() {
    guard gate.close() else { return }
    writerStatements.removeAll()
    pool.close()
  }

  /// Runs `body` in a read transaction (a consistent snapshot), mapping every error.
  func read<T>(_ context: @autoclosure () -> String, _ body: (Database) throws -> T) throws(ChimeError) -> T {
    let value = try gate.pass { () throws(ChimeError) -> T in
      do {
        return try pool.read(body)
      } catch {
        throw StoreError.map(error, .read, logger: logger, context: context())
      }
    }
    guard let value else { throw StoreError.closed }
    return value
  }
}
