import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// Snoozed notifications in the store: the v11 migration over a v10 store, the files a snooze
/// holds, the scheduler's keys and the pending listing merged with the snoozed table, and the
/// return's fire.
@Suite struct SnoozeStoreTests {
  static let tenMinutes = try! SnoozeDuration(seconds: 600)

  /// `id` added and fired once; answers when it was delivered.
  @discardableResult
  func delivered(_ store: StoreFixture, _ id: String, files: [(String, UInt64)] = [], repeats: Bool = false) throws -> Instant {
    let pending = try store.add("app", AttachmentAccountingTests.request(id, files: files, repeats: repeats))
    _ = try store.fire(ScheduleKey(due: pending.nextFire, app: "app", identifier: id), now: pending.nextFire, missedGraceMillis: 2000)
    return pending.nextFire
  }

  func holders(_ store: StoreFixture) throws -> [String: [Bool]] {
    var result: [String: [Bool]] = [:]
    try store.db.pool.read { db in
      for row in try Row.fetchAll(db, sql: "SELECT path, in_pending, in_delivered, in_snoozed FROM attachment") {
        result[row[0]] = [row[1], row[2], row[3]]
      }
    }
    return result
  }

  @Test func aV9StoreGainsTheSnoozedTableAndKeepsItsAttachments() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("state/chime.db")
    try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(queue, upTo: "v10: do not disturb follows the desktop and summarizes")
    try queue.write { db in
      try db.execute(sql: """
        INSERT INTO attachment (path, app, identifier, bytes, in_pending, in_delivered) VALUES ('/s/old.png', 'app', 'a', 7, 0, 1)
        """)
    }
    queue.close()
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    try database.pool.read { db in
      #expect(try db.tableExists("snoozed"))
      #expect(try Int.fetchOne(db, sql: "SELECT in_snoozed FROM attachment WHERE path = '/s/old.png'") == 0)
      let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'snoozed' AND type = 'index' AND sql IS NOT NULL")
      #expect(Set(indexes) == ["snoozed_by_due", "snoozed_by_app_due"])
    }
    #expect(try database.attachmentPaths() == ["/s/old.png"])
  }

  @Test func aSnoozeHoldsTheFilesUntilTheReturnAndTheReturnHandsThemBack() throws {
    let store = try StoreFixture()
    let at = try delivered(store, "a", files: [("/s/a.png", 100)])
    let snoozed = try store.commit(SnoozeDelivered(app: "app", identifier: "a", duration: Self.tenMinutes, at: at))
    #expect(snoozed.discardedFiles.isEmpty)
    #expect(snoozed.key == ScheduleKey(due: at.adding(millis: 600_000), app: "app", identifier: "a", snoozed: true))
    #expect(snoozed.events.map(\.kind) == [.snoozed] && snoozed.events.first?.pending == snoozed.snoozed)
    #expect(try holders(store)["/s/a.png"] == [false, false, true])
    #expect(try store.db.delivered(app: "app", identifier: "a") == nil)
    #expect(try store.db.soonest(after: nil, limit: 10) == [snoozed.key])

    // Survives reopening; the return delivers it again with its files and count.
    try store.reopen()
    let rows = try store.db.dueRows([snoozed.key])
    guard case .current(let row) = rows.first, let record = row.snoozed else {
      Issue.record("the snoozed row is due: \(rows)")
      return
    }
    let now = snoozed.key.due
    let fire = Fire(snoozed: row, record: record, plan: FirePlan.decideSnoozed(due: now, now: now, missedGraceMillis: 2000), now: now,
                    sound: record.sound)
    guard case .fired(let events, let back?, nil, let discarded) = try store.commit(fire) else {
      Issue.record("the return fires")
      return
    }
    #expect(back.snoozeCount == 1 && back.due == now && events.map(\.kind) == [.delivered] && discarded.isEmpty)
    #expect(try holders(store)["/s/a.png"] == [false, true, false])
    #expect(try store.db.soonest(after: nil, limit: 10).isEmpty)
    // A second fire of the same key is stale: the row is gone.
    #expect(try store.db.dueRows([snoozed.key]).first.map { if case .stale = $0 { true } else { false } } == true)
  }

  @Test func removingTheSnoozedIdentifierFreesItsFiles() throws {
    let store = try StoreFixture()
    let at = try delivered(store, "a", files: [("/s/a.png", 100)])
    try store.commit(SnoozeDelivered(app: "app", identifier: "a", duration: Self.tenMinutes, at: at))
    let removed = try store.commit(.removePending(app: "app", identifiers: ["a"], at: at))
    #expect(removed.removed == ["a"] && removed.discardedFiles == ["/s/a.png"])
    #expect(try store.db.soonest(after: nil, limit: 10).isEmpty)
    #expect(try store.db.attachmentUsage(app: "app") == 0)
  }

  @Test func snoozingWhatIsNotDeliveredFails() throws {
    let store = try StoreFixture()
    let result = store.db.commit(SnoozeDelivered(app: "app", identifier: "nope", duration: Self.tenMinutes, at: t0))
    #expect(throws: ChimeError.self) { try result.get() }
    #expect((try? result.get()) == nil)
    if case .failure(let error) = result { #expect(error.reason == "NOTIFICATION_NOT_DELIVERED" && error.code == .notFound) }
  }

  /// The listing and the scheduler's keys merge both tables in one order, page by page.
  @Test func pagesAndKeysInterleavePendingAndSnoozed() throws {
    let store = try StoreFixture()
    var snoozedKeys: [ScheduleKey] = []
    for id in ["s1", "s2", "s3"] {
      let at = try delivered(store, id)
      snoozedKeys.append(try store.commit(SnoozeDelivered(app: "app", identifier: id, duration: Self.tenMinutes, at: at)).key)
    }
    // Pending requests due around the snoozed returns (t0 + 60 s fires, + 600 s returns).
    for (id, seconds) in [("p1", 600.0), ("p2", 660), ("p3", 700)] {
      try store.add("app", Fixtures.request(id, after: seconds))
    }
    let everything = try store.db.soonest(after: nil, limit: 100)
    #expect(everything == everything.sorted() && everything.count == 6)
    #expect(Set(everything.filter(\.snoozed)) == Set(snoozedKeys))
    // Keyset paging from any key gives the rest.
    for (i, key) in everything.enumerated() {
      #expect(try store.db.soonest(after: key, limit: 2) == Array(everything.dropFirst(i + 1).prefix(2)))
    }
    var listed: [PendingRequest] = []
    var token = ""
    for _ in 0..<10 {
      let page = try store.db.pendingPage(app: "app", page: PageRequest(pageSize: 2, pageToken: token))
      listed += page.items
      token = page.nextPageToken
      if token.isEmpty { break }
    }
    #expect(listed.map(\.nextFire) == everything.map(\.due))
    #expect(listed.filter { $0.snoozeCount > 0 }.map(\.request.identifier).sorted() == ["s1", "s2", "s3"])
  }
}
