import ChimeCore
import ChimeTestSupport
import ChimeSystem
import Foundation
internal import CSQLite
import Logging
import Testing
@testable import ChimeStore

/// The store's SQLite layer where it does what GRDB did for it: the migrator's table, the
/// result codes and their mapping, statements kept across a schema change, one snapshot per read.
@Suite struct SQLiteLayerTests {
  let dir = TemporaryDirectory()

  static func migrator(_ ran: Locked<[String]>, _ identifiers: [String]) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for identifier in identifiers {
      migrator.registerMigration(identifier) { db in
        ran.withLock { $0.append(identifier) }
        try db.execute(sql: "CREATE TABLE \"\(identifier)\" (x)")
      }
    }
    return migrator
  }

  @Test func theMigratorReadsAndWritesGRDBsTable() throws {
    let queue = try DatabaseQueue()
    // A store GRDB migrated through "a": its table, as GRDB creates it, and its record.
    try queue.writeWithoutTransaction { (db) throws in
      try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
      try db.execute(sql: "CREATE TABLE a (x)")
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('a')")
    }
    let ran = Locked<[String]>([])
    let migrator = Self.migrator(ran, ["a", "b", "c"])
    try queue.read { (db) throws in
      #expect(try migrator.appliedMigrations(db) == ["a"])
      #expect(try !migrator.hasCompletedMigrations(db))
      #expect(try !migrator.hasBeenSuperseded(db))
    }
    try migrator.migrate(queue, upTo: "b")
    #expect(ran.withLock { $0 } == ["b"], "an applied migration does not run again")
    try migrator.migrate(queue)
    #expect(ran.withLock { $0 } == ["b", "c"])
    try queue.read { (db) throws in
      #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == ["a", "b", "c"])
      #expect(try migrator.hasCompletedMigrations(db))
    }
    // A migration this build does not know: a newer version migrated the store.
    try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('d')") }
    try queue.read { (db) throws in #expect(try migrator.hasBeenSuperseded(db)) }
    queue.close()
  }

  @Test func aFailingMigrationLeavesNoRecordAndNoChange() throws {
    let queue = try DatabaseQueue()
    var migrator = DatabaseMigrator()
    migrator.registerMigration("good") { db in try db.execute(sql: "CREATE TABLE good (x)") }
    migrator.registerMigration("bad") { db in
      try db.execute(sql: "CREATE TABLE half (x)")
      try db.execute(sql: "CREATE TABLE good (x)")  // exists: fails
    }
    #expect(throws: DatabaseError.self) { try migrator.migrate(queue) }
    try queue.read { (db) throws in
      #expect(try migrator.appliedMigrations(db) == ["good"])
      #expect(try !db.tableExists("half"), "the failed migration's transaction was rolled back")
    }
    queue.close()
  }

  /// A connection waiting on another's write lock fails with SQLITE_BUSY once its timeout
  /// passes; the store answers that as UNAVAILABLE, not INTERNAL.
  @Test func aBusyDatabaseIsUnavailable() throws {
    let path = dir.file("busy.db")
    let holder = try DatabasePool(path: path)
    let other = try DatabaseQueue(path: path)
    _ = try other.writeWithoutTransaction { db in sqlite3_busy_timeout(db.sqliteConnection, 0) }
    try holder.writeWithoutTransaction { (db) throws in
      try db.beginImmediate()
      let error = #expect(throws: DatabaseError.self) { try other.write { db in try db.execute(sql: "CREATE TABLE t (x)") } }
      #expect(error?.resultCode == .SQLITE_BUSY)
      let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
      #expect(StoreError.map(try #require(error), .write, logger: logger, context: "test") == StoreError.unavailable(.write))
      #expect(StoreError.map(try #require(error), .read, logger: logger, context: "test") == StoreError.unavailable(.read))
      try db.rollback()
    }
    try other.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
    other.close()
    holder.close()
  }

  @Test func resultCodesCarryTheExtendedCodeAndTheMessage() throws {
    let queue = try DatabaseQueue()
    try queue.writeWithoutTransaction { (db) throws in
      try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY)")
      try db.execute(sql: "INSERT INTO t VALUES ('a')")
      let error = #expect(throws: DatabaseError.self) { try db.cachedStatement(sql: "INSERT INTO t VALUES (?)").execute(arguments: ["a"]) }
      #expect(error?.resultCode == .SQLITE_CONSTRAINT)
      #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
      #expect(error?.description == "SQLite error 1555: UNIQUE constraint failed: t.k - while executing `INSERT INTO t VALUES (?)`")
      let missing = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM absent") }
      #expect(missing?.resultCode == .SQLITE_ERROR)
      #expect(missing?.message == "no such table: absent")
      #expect(throws: DatabaseError.self, "every parameter is bound") { try db.cachedStatement(sql: "SELECT ?, ?").execute(arguments: [1]) }
    }
    queue.close()
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAtOpen() throws {
    let path = dir.file("junk.db")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, readonly: true) }
    #expect(error?.resultCode == .SQLITE_NOTADB)
  }

  /// A kept statement stays usable after the schema changes under it (SQLite prepares it again).
  @Test func aCachedStatementIsUsableAfterASchemaChange() throws {
    let queue = try DatabaseQueue()
    try queue.writeWithoutTransaction { (db) throws in
      try db.execute(sql: "CREATE TABLE t (a INTEGER)")
      try db.execute(sql: "INSERT INTO t VALUES (1)")
      let select = try db.cachedStatement(sql: "SELECT * FROM t")
      #expect(try Row.fetchOne(select)?.count == 1)
      try db.execute(sql: "ALTER TABLE t ADD COLUMN b TEXT NOT NULL DEFAULT 'x'")
      #expect(try db.cachedStatement(sql: "SELECT * FROM t") === select)
      let row = try #require(try Row.fetchOne(select))
      #expect(row.count == 2)
      #expect(try row.decode(String.self, atIndex: 1) == "x")
    }
    queue.close()
  }

  /// A read sees one committed state from its first statement to its end, whatever commits
  /// meanwhile; the next read sees them.
  @Test func aReadSeesOneSnapshot() throws {
    let pool = try DatabasePool(path: dir.file("snapshot.db"))
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE t (n INTEGER)")
      try db.execute(sql: "INSERT INTO t VALUES (1)")
    }
    let (first, second) = try pool.read { (db) throws in
      let first = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
      try pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
      return (first, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t"))
    }
    #expect(first == 1 && second == 1)
    #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    // Readers are read-only.
    #expect(throws: DatabaseError.self) { try pool.read { db in try db.execute(sql: "INSERT INTO t VALUES (3)") } }
    pool.close()
  }

  /// Cells convert only from their own storage class: text in an integer column, or NULL where
  /// a value is expected, throws instead of reading as something else.
  @Test func cellsDecodeOnlyFromTheirStorageClass() throws {
    let queue = try DatabaseQueue()
    try queue.read { (db) throws in
      let row = try #require(try Row.fetchOne(db, sql: "SELECT 'many', NULL, 7, X'00', 'a' || char(0) || 'b', 2.0"))
      #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 0) }
      #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 1) }
      #expect(try row.decode(Int?.self, atIndex: 1) == nil)
      #expect(try row.decode(Int?.self, atIndex: 2) == 7)
      #expect(throws: RowDecodingError.self) { try row.decode([UInt8].self, atIndex: 2) }
      #expect(try row.decode([UInt8].self, atIndex: 3) == [0])
      #expect(try row.decode(String.self, atIndex: 4) == "a\0b", "text is read whole, past a NUL")
      #expect(try row.decode(Int64.self, atIndex: 5) == 2)
      #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
      #expect(try Int.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
    }
    queue.close()
  }

  /// A cursor dropped before its end leaves its statement reset, so the read's transaction
  /// ends and the next use of the statement starts afresh.
  @Test func aCursorLeftEarlyResetsItsStatement() throws {
    let pool = try DatabasePool(path: dir.file("cursor.db"))
    try pool.write { db in
      try db.execute(sql: "CREATE TABLE t (n INTEGER)")
      for n in 0..<10 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [n]) }
    }
    for _ in 0..<3 {
      let firstTwo = try pool.read { db -> [Int] in
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT n FROM t ORDER BY n"))
        var seen: [Int] = []
        while let row = try rows.next(), seen.count < 2 { seen.append(try row.decode(atIndex: 0)) }
        return seen
      }
      #expect(firstTwo == [0, 1])
    }
    // No reader holds a snapshot: a checkpoint can copy every frame back.
    let (busy, _, _) = try pool.writeWithoutTransaction { db -> (Int, Int, Int) in
      let row = try #require(try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)"))
      return (try row.decode(atIndex: 0), try row.decode(atIndex: 1), try row.decode(atIndex: 2))
    }
    #expect(busy == 0)
    pool.close()
  }
}
