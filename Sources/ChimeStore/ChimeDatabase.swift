public import ChimeCore
import Foundation
import GRDB
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

  let pool: DatabasePool
  let logger: Logger
  let codec = RecordCodec()
  let eventRetention: Int
  /// Bytes of attachments one app may keep in the store.
  public let attachmentQuota: Int64
  /// Every read and commit passes it, so `close()` never pulls a connection from under one.
  let gate = AccessGate()

  /// Opens or creates the database at `path` (creating missing parent directories with mode
  /// 0700 and the file with mode 0600), in WAL mode with `synchronous=FULL`, and migrates it.
  ///
  /// - Parameters:
  ///   - eventRetention: the most events kept; older ones are pruned by `commit(_:)` and a
  ///     reader resuming before them is told `.eventsLost`.
  ///   - attachmentQuota: bytes of attachment files one app may hold; an `add` or `deliverNow`
  ///     that would pass it fails with RESOURCE_EXHAUSTED `ATTACHMENT_QUOTA_EXCEEDED`.
  /// - Throws: UNAVAILABLE `STORE_UNAVAILABLE` when the file or its directory cannot be
  ///   created or opened; INTERNAL `STORE_UNAVAILABLE` when it is not a usable Chime database;
  ///   FAILED_PRECONDITION `STORE_UNAVAILABLE` when a newer version of Chime migrated it.
  public init(path: String, logger: Logger? = nil, eventRetention: Int = ChimeDatabase.defaultEventRetention,
              attachmentQuota: Int64 = Limits.attachmentQuotaDefault) throws(ChimeError) {
    let logger = logger ?? Logger(label: "chime.store", factory: { _ in SwiftLogNoOpLogHandler() })
    self.logger = logger
    self.attachmentQuota = attachmentQuota
    self.eventRetention = max(eventRetention, 1)
    do {
      try Self.prepareFile(at: path)
    } catch {
      logger.error("cannot create the database file", metadata: ["path": "\(path)", "cause": "\(error)"])
      throw StoreError.unavailable(.open)
    }
    var configuration = Configuration()
    configuration.label = "chime.store"
    configuration.journalMode = .wal
    configuration.busyMode = .timeout(5)
    configuration.maximumReaderCount = 4
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    do {
      // Checked read-only first: opening the pool writes (GRDB makes sure a WAL file exists),
      // and nothing may write to a damaged store.
      try Self.verify(path: path, logger: logger)
      pool = try DatabasePool(path: path, configuration: configuration)
      // GRDB sets synchronous=NORMAL on the writer after `prepareDatabase` when it enables WAL.
      // An answered call must survive power loss, so the writer commits with FULL.
      try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
      }
      if try pool.read({ db in try Schema.migrator.hasBeenSuperseded(db) }) {
        logger.error("the database was migrated by a newer version", metadata: ["path": "\(path)"])
        throw ChimeError(.failedPrecondition, reason: Reason.storeUnavailable.name,
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

  /// `PRAGMA quick_check` on a read-only connection before anything writes: a damaged store is
  /// refused at start-up, not discovered one read at a time. About 0.8 ms per thousand pending
  /// requests. A new, empty file has nothing to check.
  private static func verify(path: String, logger: Logger) throws {
    guard (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 else { return }
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    let findings = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(5)") }
    guard findings == ["ok"] else {
      logger.error("the store failed its check", metadata: ["path": "\(path)", "findings": "\(findings)"])
      throw damaged(path, "quick_check: " + findings.joined(separator: "; "))
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
    try? FileManager.default.removeItem(atPath: copyPath)
    let copy = try DatabaseQueue(path: copyPath)
    try pool.backup(to: copy)
    try copy.close()
    logger.notice("copied the store before migrating it", metadata: ["copy": "\(copyPath)", "from": "\(applied.last ?? "")"])
    do {
      try Schema.migrator.migrate(pool)
    } catch {
      logger.error("the migration failed; the store as it was is kept", metadata: ["copy": "\(copyPath)", "cause": "\(error)"])
      throw error
    }
    try? FileManager.default.removeItem(atPath: copyPath)
  }

  /// Creates missing parent directories (0700) and an empty database file (0600), so the
  /// database and its -wal and -shm files (which copy the file's mode) are private.
  private static func prepareFile(at path: String) throws {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent()
    let files = FileManager.default
    if !files.fileExists(atPath: directory.path) {
      try files.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    if !files.fileExists(atPath: path) {
      guard files.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
        throw CocoaError(.fileWriteUnknown)
      }
    }
  }

  /// Closes every connection, waiting for accesses in progress. Later calls fail with
  /// UNAVAILABLE `STORE_CLOSED` (and `commit` answers that for each mutation). Safe to call
  /// while other threads read and commit.
  public func close() {
    guard gate.close() else { return }
    do {
      try pool.close()
    } catch {
      logger.error("closing the store failed", metadata: ["cause": "\(error)"])
    }
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
