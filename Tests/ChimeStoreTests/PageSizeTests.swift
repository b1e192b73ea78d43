import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A new store is made with 2 KiB pages (a lone add's sync flushes half the bytes); a store made
/// with SQLite's 4 KiB keeps them, and works as before.
@Suite struct PageSizeTests {
  let dir = TemporaryDirectory()

  static func pending(_ identifier: String) -> PendingRequest {
    PendingRequest(request: NotificationRequest(identifier: identifier, content: NotificationContent(title: identifier),
                                                trigger: .timeInterval(TimeIntervalTrigger(seconds: 60))),
                   nextFire: Instant(unixMillis: 1_900_000_000_000), added: Instant(unixMillis: 1_800_000_000_000))
  }

  @Test func aNewStoreHasTwoKiBPagesInWALMode() throws {
    let database = try ChimeDatabase(path: dir.file("new/chime.db"))
    defer { database.close() }
    _ = try database.commit(AddPending(app: "a", pending: Self.pending("x"), at: Self.pending("x").added)).get()
    let (pageSize, journal) = try database.pool.read { db in
      (try Int.fetchOne(db, sql: "PRAGMA page_size"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
    }
    #expect(pageSize == ChimeDatabase.pageSize)
    #expect(ChimeDatabase.pageSize == 2048)
    #expect(journal == "wal")
  }

  /// A migrated store made with SQLite's 4 KiB pages, as chimed made them before 2 KiB.
  static func fourKiBStore(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA page_size = 4096") }
    try Schema.migrator.migrate(queue)
    queue.close()
  }

  @Test func aStoreWithFourKiBPagesKeepsThemAndWorks() throws {
    let path = dir.file("old/chime.db")
    try Self.fourKiBStore(path)

    var database = try ChimeDatabase(path: path)
    _ = try database.commit(AddPending(app: "a", pending: Self.pending("kept"), at: Self.pending("kept").added)).get()
    database.close()
    database = try ChimeDatabase(path: path)
    defer { database.close() }
    #expect(try database.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
    #expect(try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending WHERE identifier = 'kept'") } == 1)
    #expect(try database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") } == "ok")
  }
}
