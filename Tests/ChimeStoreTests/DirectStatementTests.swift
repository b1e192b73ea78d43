import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// The statements every add runs bind and step with sqlite3 calls (`DirectStatement`): values
/// arrive as bound, errors are `DatabaseError`s as `execute` would throw them, the statement is usable
/// again after a failure, and a damaged cell reads as corrupt.
@Suite struct DirectStatementTests {
  @Test func valuesArriveAsBoundAndAnEmptyBlobIsNotNull() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t (n INTEGER, s TEXT, b BLOB)")
      let insert = try DirectStatement(db, "INSERT INTO t (n, s, b) VALUES (?, ?, ?)")
      try insert.execute([.integer(Int64.min), .text("Grüße, 日本 🔔"), .blob([0, 1, 255])])
      try insert.execute([.integer(7), .text(""), .blob([])])
      try insert.execute([.integer(8), .text("a\0b"), .blob([1])])
      let rows = try Row.fetchAll(db, sql: "SELECT n, s, b, typeof(b) FROM t ORDER BY rowid")
      #expect(rows[0][0] as Int64 == Int64.min)
      #expect(rows[0][1] as String == "Grüße, 日本 🔔")
      #expect(rows[0][2] as [UInt8] == [0, 1, 255])
      #expect(rows[1][1] as String == "")
      #expect(rows[1][3] as String == "blob", "an empty body is stored as an empty blob, not NULL")
      #expect(try Int.fetchOne(db, sql: "SELECT length(CAST(s AS BLOB)) FROM t WHERE n = 8") == 3, "text is bound whole, not cut at a NUL")
      #expect(try String.fetchOne(db, sql: "SELECT typeof(s) FROM t WHERE n = 7") == "text", "an empty string is text, not NULL")

      let select = try DirectStatement(db, "SELECT n, NULL FROM t WHERE s = ?")
      let read = try select.fetchOne([.text("")]) { row in (try row.integer(0, "n"), try row.integer(1, "n")) }
      #expect(read?.0 == 7 && read?.1 == nil)
      #expect(try select.fetchOne([.text("absent")]) { _ in true } == nil)
    }
  }

  @Test func aFailedStepThrowsTheDatabaseErrorAndTheStatementRunsAgain() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY)")
      let insert = try DirectStatement(db, "INSERT INTO t (k) VALUES (?)")
      try insert.execute([.text("a")])
      do {
        try insert.execute([.text("a")])
        Issue.record("a duplicate key was inserted")
      } catch let error as DatabaseError {
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(StoreError.isStatementLocal(error), "a constraint fails the one mutation, not the batch")
        #expect(error.sql?.contains("INSERT INTO t") == true)
      }
      try insert.execute([.text("b")])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
      // Left reset with its bindings cleared: the cached statement's other uses work.
      try db.cachedStatement(sql: "INSERT INTO t (k) VALUES (?)").execute(arguments: ["c"])
      #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
    }
  }

  @Test func aDamagedPendingCountIsCorruptAndTheAddIsNotStored() throws {
    let store = try StoreFixture()
    try store.add("a", Fixtures.request("first"))
    store.db.close()
    let queue = try DatabaseQueue(path: store.path)
    try queue.write { db in try db.execute(sql: "UPDATE app_pending SET count = 'many' WHERE app = 'a'") }
    queue.close()
    try store.reopen()
    do {
      try store.add("a", Fixtures.request("second"))
      Issue.record("an add was stored over a damaged pending count")
    } catch let error as ChimeError {
      #expect(error.has(.storeCorrupt), "\(error)")
      #expect(error.message == "a stored pending count could not be read")
    }
    #expect(try store.allPending("a").map(\.request.identifier) == ["first"])
  }
}
