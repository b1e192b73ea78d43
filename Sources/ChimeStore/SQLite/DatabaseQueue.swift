import ChimeSystem

/// One connection behind a lock: the store's check before opening (read-only), the copy made
/// before a migration, compaction and the tests' direct edits of a store file.
final class DatabaseQueue: DatabaseReader, DatabaseWriter, @unchecked Sendable {
  private let connection: Locked<Database>

  /// Opens `path` (created unless `readonly`); no path: a private in-memory database.
  init(path: String = ":memory:", readonly: Bool = false) throws {
    connection = Locked(try Database(path: path, readonly: readonly))
  }

  func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
    try connection.withLock { db in try body(db) }
  }

  /// `body` in one snapshot.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try writeWithoutTransaction { db in try db.inSnapshot { try body(db) } }
  }

  func close() {
    connection.withLock { $0.close() }
  }
}
