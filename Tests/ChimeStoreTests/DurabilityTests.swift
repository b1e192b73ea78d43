import ChimeSystem
import ChimeCore
import ChimeTestSupport
import Foundation
internal import CSQLite
import Testing
@testable import ChimeStore

@Suite(.testTimeLimit) struct DurabilityTests {
  @Test func reopeningKeepsEverything() throws {
    let store = try StoreFixture()
    let repeating = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    try store.add("app", Fixtures.request("one", after: 600))
    try store.fire(ScheduleKey(due: repeating.nextFire, app: "app", identifier: "r"), now: repeating.nextFire, missedGraceMillis: 0)
    try store.deliverNow("other", "d", at: t0)

    let pending = try store.allPending("app")
    let delivered = try store.allDelivered("app") + store.allDelivered("other")
    let events = try store.db.events(app: "app", after: 0, limit: 100) + store.db.events(app: "other", after: 0, limit: 100)
    let keys = try store.db.soonest(after: nil, limit: 100)
    #expect(pending.count == 2 && delivered.count == 2 && events.count == 4 && keys.count == 2)

    try store.reopen()
    #expect(try store.allPending("app") == pending)
    #expect(try store.allDelivered("app") + store.allDelivered("other") == delivered)
    #expect(try store.db.events(app: "app", after: 0, limit: 100) + store.db.events(app: "other", after: 0, limit: 100) == events)
    #expect(try store.db.soonest(after: nil, limit: 100) == keys)
    #expect(try store.db.lastCursor() == 4)
    #expect(try store.db.pending(app: "app", identifier: "r")?.fireCount == 1)
  }

  @Test func walAndFullSynchronousOnTheWriter() throws {
    let store = try StoreFixture()
    let (mode, synchronous) = try store.db.pool.writeWithoutTransaction { db in
      (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
    }
    #expect(mode == "wal")
    #expect(synchronous == 2)  // FULL
  }

  @Test func filesArePrivate() throws {
    let store = try StoreFixture()
    try store.add("app", Fixtures.request("a"))
    let files = FileManager.default
    let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
    #expect((try files.attributesOfItem(atPath: directory)[.posixPermissions] as? Int) == 0o700)
    #expect((try files.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int) == 0o600)
    #expect((try files.attributesOfItem(atPath: store.path + "-wal")[.posixPermissions] as? Int) == 0o600)
  }

  @Test func oneFailingMutationLeavesTheOthersCommitted() throws {
    let store = try StoreFixture()
    try store.add("app", Fixtures.request("victim"))
    // A trigger makes the delivered insert fail after the pending row was already deleted
    // and its event written, so the savepoint must undo those.
    try store.db.pool.write { db in
      try db.execute(sql: """
        CREATE TEMP TRIGGER refuse_bad BEFORE INSERT ON delivered WHEN NEW.identifier = 'victim'
        BEGIN SELECT RAISE(ABORT, 'refused by test'); END
        """)
    }
    let bad = DeliveredNotification(request: NotificationRequest(identifier: "victim", content: NotificationContent(title: "bad")), delivered: t0, due: t0)
    let results = store.db.commit([
      AddPending(app: "app", pending: Fixtures.pending(Fixtures.request("before"), added: t0), at: t0),
      DeliverNow(app: "app", delivered: bad, at: t0),
      AddPending(app: "app", pending: Fixtures.pending(Fixtures.request("after"), added: t0), at: t0),
    ])
    #expect(try results[0].events.map(\.cursor) == [2])
    #expect(results[1].failure?.code == .internal)
    #expect(try results[2].events.map(\.cursor) == [3])
    #expect(try store.allPending("app").map(\.request.identifier) == ["after", "before", "victim"])
    #expect(try store.allDelivered("app").isEmpty)
    #expect(try store.db.events(app: "app", after: 0, limit: 10).map(\.cursor) == [1, 2, 3])
  }

  @Test func aFullDiskFailsTheWholeBatchAndTheStoreRecovers() throws {
    let store = try StoreFixture()
    try store.add("app", Fixtures.request("kept"))
    let pages = try store.db.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA page_count")! }
    try store.db.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }

    var content = NotificationContent(title: "big")
    content.body = String(repeating: "x", count: 4000)
    let batch: [AddPending] = (0..<64).map { i in
      var request = Fixtures.request("n\(i)")
      request.content = content
      return .add(app: "app", pending: Fixtures.pending(request, added: t0), at: t0)
    }
    let results = store.db.commit(batch)
    #expect(results.count == 64)
    #expect(results.allSatisfy { $0.failure == StoreError.full })
    #expect(results[0].failure?.code == .resourceExhausted)
    #expect(try store.allPending("app").map(\.request.identifier) == ["kept"])
    #expect(try store.db.lastCursor() == 1)

    try store.db.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
    #expect(store.db.commit(batch).allSatisfy { (try? $0.get()) != nil })
    #expect(try store.db.pendingCount() == 65)
  }

  @Test func aBatchOfAThousandAddsIsOneTransaction() throws {
    let store = try StoreFixture()
    let counter = CommitCounter()
    try store.db.pool.writeWithoutTransaction { db in counter.install(on: db) }
    let batch: [AddPending] = (0..<1000).map { i in
      .add(app: "app", pending: Fixtures.pending(Fixtures.request("r\(i)", after: Double(60 + i)), added: t0), at: t0)
    }
    let results = store.db.commit(batch)
    #expect(counter.commits == 1)
    let cursors = try results.map { try $0.events[0].cursor }
    #expect(cursors == Array(1...1000))
    #expect(try store.db.pendingCount() == 1000)
    #expect(try store.db.soonest(after: nil, limit: 2000).count == 1000)
    #expect(store.db.commit([]).isEmpty)
    #expect(counter.commits == 1)
  }

  @Test func aClosedStoreAnswersUnavailable() throws {
    let store = try StoreFixture()
    store.db.close()
    store.db.close()
    #expect(throws: StoreError.closed) { try store.db.pendingCount() }
    let results = store.db.commit([Remove.removePending(app: "app", identifiers: nil, at: t0)])
    #expect(results.map(\.failure) == [StoreError.closed])
    try store.reopen()
    #expect(try store.db.pendingCount() == 0)
  }

  /// chimed closes the store on SIGTERM while a pool thread may still be reading (the
  /// scheduler's refill, a page). Such a read must not slip past the closed check into a
  /// connection the close just closed and crash in SQLite: it either completes or is told
  /// STORE_CLOSED, and nothing after the close reaches the pool.
  @Test func closingWhileOthersReadAndCommitAnswersThemAll() throws {
    for round in 0..<20 {
      let store = try StoreFixture()
      try store.add("app", Fixtures.request("kept"))
      let started = DispatchSemaphore(value: 0)
      let outcomes = Locked<[String: Int]>([:])
      let finished = DispatchSemaphore(value: 0)
      let workers = 4
      for worker in 0..<workers {
        // Threads of their own: GCD runs only as many blocking blocks at once as there are cores.
        Thread.detachNewThread { [db = store.db] in
          defer { finished.signal() }
          let deadline = Date().addingTimeInterval(10)  // bounded: the close comes long before
          var attempt = 0
          while Date() < deadline {
            attempt += 1
            let outcome: String
            if worker == 0 {
              let result = db.commit([Remove.removePending(app: "other", identifiers: ["x\(attempt)"], at: t0)])[0]
              outcome = result.failure?.reason ?? "ok"
            } else {
              do throws(ChimeError) {
                outcome = try db.pendingCount() == 1 ? "ok" : "wrong count"
              } catch {
                outcome = error.reason
              }
            }
            outcomes.withLock { $0[outcome, default: 0] += 1 }
            if attempt == 1 { started.signal() }
            if outcome == StoreError.closed.reason { break }
          }
        }
      }
      for _ in 0..<workers { #expect(started.wait(timeout: .now() + 10) == .success) }
      store.db.close()
      for _ in 0..<workers {
        #expect(finished.wait(timeout: .now() + 20) == .success, "round \(round): every worker stops")
      }
      let seen = outcomes.withLock { $0 }
      #expect(Set(seen.keys).isSubset(of: ["ok", StoreError.closed.reason]), "round \(round): \(seen)")
      #expect(seen[StoreError.closed.reason] == workers, "round \(round): each worker stopped on STORE_CLOSED")
    }
  }

  @Test func aPathThatCannotBeCreatedIsUnavailable() throws {
    let store = try StoreFixture()
    let error = #expect(throws: ChimeError.self) { try ChimeDatabase(path: store.path + "/under-a-file/chime.db") }
    #expect(error?.code == .unavailable)
    #expect(error?.reason == "STORE_UNAVAILABLE")
  }

  @Test func aFileThatIsNotADatabaseIsRefused() throws {
    let store = try StoreFixture()
    let path = store.directory.appendingPathComponent("junk.db").path
    try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: ChimeError.self) { try ChimeDatabase(path: path) }
    #expect(error?.reason == "STORE_DAMAGED")
    #expect(error?.message.contains("SQL") == false)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x41, count: 8192))
  }

  @Test func aDatabaseFromANewerVersionIsRefused() throws {
    let store = try StoreFixture()
    try store.db.pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v999')") }
    store.db.close()
    let error = #expect(throws: ChimeError.self) { try ChimeDatabase(path: store.path) }
    #expect(error?.code == .failedPrecondition)
    #expect(error?.reason == "STORE_TOO_NEW")
  }
}

/// Counts commits of the writer connection (SQLite's commit hook; the counter must outlive
/// the connection's commits).
final class CommitCounter: @unchecked Sendable {
  private(set) var commits = 0

  func install(on db: Database) {
    sqlite3_commit_hook(db.sqliteConnection, { context in
      Unmanaged<CommitCounter>.fromOpaque(context!).takeUnretainedValue().commits += 1
      return 0  // let it commit
    }, Unmanaged.passUnretained(self).toOpaque())
  }
}
