import ChimeSystem
import Dispatch

/// What reads a database: one snapshot per `read`.
protocol DatabaseReader: Sendable {
  func read<T>(_ body: (Database) throws -> T) throws -> T
}

/// What writes a database: its writing connection, one thread at a time.
protocol DatabaseWriter {
  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T
}

extension DatabaseWriter {
  /// `body` in an IMMEDIATE transaction on the writing connection, committed when it returns.
  func write<T>(_ body: (Database) throws -> T) throws -> T {
    try writeWithoutTransaction { db in
      var value: T?
      try db.inTransaction {
        value = try body(db)
        return .commit
      }
      return value!
    }
  }
}

/// A WAL database's connections: one writer, used by one thread at a time, and up to
/// `maximumReaderCount` read-only readers, each read in a transaction of its own so that it
/// sees one committed state while the writer goes on committing.
///
/// `prepare` runs on every connection as it opens (pragmas); the writer then switches the file
/// to WAL. Readers open lazily and are kept. `close()` is not safe against accesses in progress:
/// the store's AccessGate waits for them first.
final class DatabasePool: DatabaseReader, DatabaseWriter, @unchecked Sendable {
  private struct Readers {
    var idle: [Database] = []
    /// Every reader opened (idle or in use), for `interrupt()`.
    var all: [Database] = []
    var closed = false
  }

  let path: String
  private let prepare: (Database) throws -> Void
  /// The writer, its lock held for each access.
  private let writer: Locked<Database>
  /// The writer's handle for `interrupt()`, which must not wait for the writer's lock.
  private let writerForInterrupt: Database
  private let readers = Locked(Readers())
  /// Counts readers not in use: a read waits for one when `maximumReaderCount` are busy.
  private let readerSlots: DispatchSemaphore

  init(path: String, maximumReaderCount: Int = 4, prepare: @escaping (Database) throws -> Void = { _ in }) throws {
    self.path = path
    self.prepare = prepare
    let writer = try Database(path: path)
    do {
      try prepare(writer)
      let mode = try String.fetchOne(writer, sql: "PRAGMA journal_mode = WAL")
      guard mode == "wal" else {
        throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not switch to WAL mode (the journal mode is \(mode ?? "unknown"))")
      }
    } catch {
      writer.close()
      throw error
    }
    self.writer = Locked(writer)
    writerForInterrupt = writer
    readerSlots = DispatchSemaphore(value: max(maximumReaderCount, 1))
  }

  /// `body` on the writer, outside any transaction, as the only user of the writer.
  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try writer.withLock { db in
      guard !isClosed else { throw Self.closedError }
      return try body(db)
    }
  }

  /// `body` on a reader, in one snapshot of the last committed state.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    readerSlots.wait()
    defer { readerSlots.signal() }
    let db = try takeReader()
    defer { readers.withLock { $0.idle.append(db) } }
    return try db.inSnapshot { try body(db) }
  }

  /// Hands back the page cache of every reader not in use (`sqlite3_db_release_memory`): a
  /// burst of reads fills up to four readers' caches, which then hold the memory while idle.
  /// The writer's cache, the working set of every add, is kept.
  func releaseIdleReaderMemory() {
    readers.withLock { readers in
      for db in readers.idle { db.releaseMemory() }
    }
  }

  private func takeReader() throws -> Database {
    let taken = try readers.withLock { readers throws -> Database? in
      guard !readers.closed else { throw Self.closedError }
      return readers.idle.popLast()
    }
    if let taken { return taken }
    let db = try Database(path: path, readonly: true)
    do {
      try prepare(db)
    } catch {
      db.close()
      throw error
    }
    try readers.withLock { readers in
      guard !readers.closed else {
        db.close()
        throw Self.closedError
      }
      readers.all.append(db)
    }
    return db
  }

  /// Makes a copy of the database in `destination` (SQLite's backup API), from the writer:
  /// the copy is one committed state.
  func backup(to destination: DatabaseQueue) throws {
    try writeWithoutTransaction { db in
      try destination.writeWithoutTransaction { target in try Backup.copy(from: db, to: target) }
    }
  }

  /// Interrupts what runs on every connection (SQLITE_INTERRUPT at its next step).
  func interrupt() {
    readers.withLock { readers in
      guard !readers.closed else { return }
      writerForInterrupt.interrupt()
      for reader in readers.all { reader.interrupt() }
    }
  }

  private var isClosed: Bool { readers.withLock { $0.closed } }

  static let closedError = DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database is closed")

  /// Closes the readers, then the writer (the last connection to close checkpoints the WAL
  /// into the database file and removes it). Accesses must have ended.
  func close() {
    let all = readers.withLock { readers -> [Database] in
      guard !readers.closed else { return [] }
      readers.closed = true
      defer {
        readers.all = []
        readers.idle = []
      }
      return readers.all
    }
    for reader in all { reader.close() }
    writer.withLock { $0.close() }
  }
}
