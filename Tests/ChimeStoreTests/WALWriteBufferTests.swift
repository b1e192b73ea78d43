import ChimeSystem
import ChimeCore
import ChimeTestSupport
import Foundation
internal import CSQLite
import Testing
@testable import ChimeStore

/// The store's VFS gathers a transaction's WAL writes into one write before the commit's sync:
/// what is committed reads back whole, from the same connection mid-transaction and from
/// others after the commit, whatever the sync setting and however large the transaction.
@Suite struct WALWriteBufferTests {
  let dir = TemporaryDirectory()

  /// A pool on `name` in the temporary directory through the store's VFS, WAL mode, with
  /// `synchronous` on its writer.
  func pool(_ name: String, synchronous: String) throws -> DatabasePool {
    let pool = try DatabasePool(path: WALWriteBuffer.openPath(dir.file(name)), maximumReaderCount: 2)
    try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
    return pool
  }

  @Test func theStoreWritesEachCommitsFramesInOneWrite() throws {
    let database = try ChimeDatabase(path: dir.file("chime.db"))
    defer { database.close() }
    #expect(String(cString: sqlite3_vfs_find(nil).pointee.zName) == "unix", "the process's default VFS is SQLite's own")
    let now = Instant(unixMillis: 1_800_000_000_000)
    func add(_ identifier: String) -> AddPending {
      let request = NotificationRequest(identifier: identifier, content: NotificationContent(title: "t"),
                                        trigger: .timeInterval(TimeIntervalTrigger(seconds: 60)))
      return AddPending(app: "org.example.app", pending: PendingRequest(request: request, nextFire: now.adding(seconds: 60), added: now), at: now)
    }
    _ = try database.commit(add("warm-up")).get()
    let wal = dir.file("chime.db-wal")
    let before = WALWriteBuffer.writesMade.withLock { $0[wal] ?? 0 }
    _ = try database.commit(add("one")).get()
    // SQLite writes each of the add's frames (about ten) as a header and a page: twenty calls.
    #expect(WALWriteBuffer.writesMade.withLock { $0[wal] ?? 0 } - before == 1, "the commit's frames in one write")
    #expect(try database.pending(app: "org.example.app", identifier: "one")?.request.identifier == "one")
    #expect(try database.pendingCount() == 2)
  }

  @Test func anotherConnectionInTheProcessKeepsSQLitesVFSAndSeesTheStoresCommits() throws {
    let database = try ChimeDatabase(path: dir.file("chime.db"))
    defer { database.close() }
    let now = Instant(unixMillis: 1_800_000_000_000)
    let request = NotificationRequest(identifier: "seen", content: NotificationContent(title: "t"),
                                      trigger: .timeInterval(TimeIntervalTrigger(seconds: 60)))
    _ = try database.commit(AddPending(app: "org.example.app", pending: PendingRequest(request: request, nextFire: now.adding(seconds: 60), added: now), at: now)).get()
    // A plain pool on another file: its WAL goes straight to "unix", never through the buffer.
    let other = try DatabasePool(path: dir.file("other.db"))
    try other.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER)") }
    #expect(WALWriteBuffer.writesMade.withLock { $0[dir.file("other.db-wal")] } == nil)
    // A plain queue on the store's file reads the committed row.
    let plain = try DatabaseQueue(path: dir.file("chime.db"))
    #expect(try plain.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pending") } == 1)
  }

  @Test func pathsWithURICharactersOpenThroughTheVFS() throws {
    let database = try ChimeDatabase(path: dir.file("a dir?#%/chime.db"))
    defer { database.close() }
    #expect(try database.pendingCount() == 0)
    #expect(FileManager.default.fileExists(atPath: dir.file("a dir?#%/chime.db")))
  }

  @Test(arguments: ["FULL", "NORMAL", "OFF"])
  func everyCommitIsSeenWholeByAnotherConnection(synchronous: String) throws {
    let pool = try pool("seen.db", synchronous: synchronous)
    try pool.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, body BLOB NOT NULL)") }
    for n in 0..<150 {
      let body = (0..<(n * 97 % 9000)).map { UInt8(truncatingIfNeeded: $0 &* n) }
      try pool.write { db in try db.execute(sql: "INSERT INTO t (n, body) VALUES (?, ?)", arguments: [n, body]) }
      // A reader on another connection, right after the commit: without a sync (NORMAL, OFF)
      // only the barrier before the WAL index is published put the frames in the file.
      let read = try pool.read { db in try [UInt8].fetchOne(db, sql: "SELECT body FROM t WHERE n = ?", arguments: [n]) }
      #expect(read == body, "row \(n) with synchronous=\(synchronous)")
      #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == n + 1)
    }
  }

  @Test func aTransactionLargerThanOneWriteAndSpillingItsCacheReadsBackWhole() throws {
    let writer = try pool("large.db", synchronous: "FULL")
    // A tiny cache: the transaction spills pages to the WAL and reads them back before it commits.
    try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = 8") }
    let blobs = (0..<40).map { i in (0..<(20_000 + i * 1_000)).map { UInt8(truncatingIfNeeded: $0 ^ i) } }
    try writer.write { db in
      try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, body BLOB NOT NULL)")
      for (i, blob) in blobs.enumerated() {
        try db.execute(sql: "INSERT INTO t (n, body) VALUES (?, ?)", arguments: [i, blob])
      }
      for (i, blob) in blobs.enumerated() {
        #expect(try [UInt8].fetchOne(db, sql: "SELECT body FROM t WHERE n = ?", arguments: [i]) == blob, "read back in the transaction")
      }
    }
    writer.close()
    // Reopened: what the WAL holds (about 1.4 MB, many pieces of one write) is all there.
    let reopened = try pool("large.db", synchronous: "FULL")
    let read = try reopened.read { db in try [UInt8].fetchAll(db, sql: "SELECT body FROM t ORDER BY n") }
    #expect(read == blobs)
    #expect(try reopened.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
  }
}
