import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// `chimed --compact-store`: the store rebuilt in place with 2 KiB pages, everything kept, and
/// never while another connection has it open.
@Suite struct CompactTests {
  let dir = TemporaryDirectory()

  func add(_ identifier: String, to database: ChimeDatabase) throws {
    let pending = PageSizeTests.pending(identifier)
    _ = try database.commit(AddPending(app: "a", pending: pending, at: pending.added)).get()
  }

  @Test func aFourKiBStoreIsRebuiltWithTwoKiBPagesAndKeepsEverything() throws {
    let path = dir.file("old/chime.db")
    try PageSizeTests.fourKiBStore(path)
    var database = try ChimeDatabase(path: path)
    for i in 0..<200 { try add("r\(i)", to: database) }
    let cursor = try database.lastCursor()
    database.close()

    let report = try ChimeDatabase.compact(path: path)
    #expect(report.pageSizeBefore == 4096)
    #expect(report.pageSizeAfter == ChimeDatabase.pageSize)
    #expect(report.bytesAfter > 0)

    database = try ChimeDatabase(path: path)
    defer { database.close() }
    let (count, mode, pageSize) = try database.pool.read { db in
      (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending"), try String.fetchOne(db, sql: "PRAGMA journal_mode"),
       try Int.fetchOne(db, sql: "PRAGMA page_size"))
    }
    #expect(count == 200)
    #expect(mode == "wal")
    #expect(pageSize == ChimeDatabase.pageSize)
    #expect(try database.lastCursor() == cursor)
    try add("after", to: database)
  }

  @Test func aStoreInUseIsLeftAlone() throws {
    let path = dir.file("busy/chime.db")
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    try add("kept", to: database)
    let error = #expect(throws: ChimeError.self) { try ChimeDatabase.compact(path: path) }
    #expect(error?.code == .unavailable)
    #expect(error?.reason == "STORE_UNAVAILABLE")
    #expect(error?.message.contains("in use") == true, "\(String(describing: error))")
    // The open store goes on as it was.
    try add("then", to: database)
    #expect(try database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
  }

  /// A compaction cut short (a power cut, a kill) leaves the store in rollback-journal mode
  /// with a hot journal: the files as they were on disk mid-rebuild. chimed opens it as it was
  /// before the rebuild (SQLite rolls the journal back), back in WAL mode, rather than refusing
  /// it because its read-only check before opening cannot roll a journal back.
  @Test func aStoreWhoseCompactionWasCutShortOpensAsItWas() throws {
    let path = dir.file("live/chime.db")
    let database = try ChimeDatabase(path: path)
    for i in 0..<100 { try add("r\(i)", to: database) }
    let before = try database.pendingPage(app: "a", page: PageRequest(pageSize: 500)).items
    database.close()

    // The rebuild's transaction in progress: a tiny cache makes it write changed pages into the
    // file, their originals in the journal; a copy of both is the disk after the cut.
    let crashed = dir.file("crashed/chime.db")
    try FileManager.default.createDirectory(atPath: dir.file("crashed"), withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { (db) throws in
      #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete")
      try db.execute(sql: "PRAGMA cache_size = 2")
      try db.beginImmediate()
      try db.execute(sql: "UPDATE pending SET body = zeroblob(length(body)), next_fire = next_fire + 1")
      for suffix in ["", "-journal"] {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: crashed + suffix)
      }
      try db.rollback()
    }
    queue.close()

    let reopened = try ChimeDatabase(path: crashed)
    defer { reopened.close() }
    #expect(try reopened.pendingPage(app: "a", page: PageRequest(pageSize: 500)).items == before)
    #expect(try reopened.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    #expect(!FileManager.default.fileExists(atPath: crashed + "-journal"))
    try add("after", to: reopened)
  }

  @Test func noStoreAndADamagedFileAreRefusedWithReasons() throws {
    let missing = #expect(throws: ChimeError.self) { try ChimeDatabase.compact(path: dir.file("none/chime.db")) }
    #expect(missing?.code == .failedPrecondition)
    let garbage = dir.file("chime.db")
    try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: garbage))
    let damaged = #expect(throws: ChimeError.self) { try ChimeDatabase.compact(path: garbage) }
    #expect(damaged?.reason == "STORE_DAMAGED", "\(String(describing: damaged))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == Data(repeating: 0x5A, count: 8192), "left untouched")
  }
}
