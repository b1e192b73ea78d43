import ChimeCore
import Testing
@testable import ChimeStore

/// An app may hold at most `limit` pending requests: the next new identifier is refused with
/// RESOURCE_EXHAUSTED `PENDING_LIMIT` (never silently dropped, as Apple drops all but 64), while
/// replacing one, and every other app, goes on. The count is kept by the write transaction
/// (`app_pending`, written once per app before the commit), so it follows removals and fires,
/// adds earlier in the same batch, and survives a reopen.
@Suite struct PendingLimitTests {
  func add(_ store: StoreFixture, _ id: String, app: String = "app", limit: Int = 3, after seconds: Double = 60) throws -> Result<AddPending.Outcome, ChimeError> {
    store.db.commit(AddPending(app: app, pending: Fixtures.pending(Fixtures.request(id, after: seconds), added: t0), at: t0, limit: limit))
  }

  func expectRefused(_ result: Result<AddPending.Outcome, ChimeError>, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .failure(let error) = result else {
      Issue.record("expected PENDING_LIMIT, got \(result)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.has(.pendingLimit), "\(error)", sourceLocation: sourceLocation)
    #expect(error.code == .resourceExhausted, sourceLocation: sourceLocation)
    #expect(error.message.contains("already has 3 pending requests"), "\(error.message)", sourceLocation: sourceLocation)
  }

  @Test func theNextNewIdentifierIsRefusedAndNothingChanges() throws {
    let store = try StoreFixture()
    for id in ["a", "b", "c"] { _ = try add(store, id).get() }
    let cursor = try store.db.lastCursor()
    expectRefused(try add(store, "d"))
    #expect(try store.db.pending(app: "app", identifier: "d") == nil)
    #expect(try store.db.lastCursor() == cursor, "a refused add records no event")
    // Replacing one does not count; another app has its own count.
    #expect(try add(store, "a", after: 120).get().replaced)
    _ = try add(store, "x", app: "other").get()
  }

  @Test func removalsAndFiresMakeRoom() throws {
    let store = try StoreFixture()
    for id in ["a", "b", "c"] { _ = try add(store, id).get() }
    try store.commit(.removePending(app: "app", identifiers: ["b"], at: t0))
    _ = try add(store, "d").get()
    expectRefused(try add(store, "e"))
    // A one-shot request that fires leaves the pending list.
    let due = try #require(try store.db.pending(app: "app", identifier: "a")).nextFire
    try store.fire(ScheduleKey(due: due, app: "app", identifier: "a"), now: due, missedGraceMillis: 2000)
    _ = try add(store, "e").get()
    try store.commit(.removePending(app: "app", identifiers: nil, at: t0))
    for id in ["f", "g", "h"] { _ = try add(store, id).get() }
    expectRefused(try add(store, "i"))
  }

  @Test func theCountSurvivesAReopen() throws {
    let store = try StoreFixture()
    for id in ["a", "b", "c"] { _ = try add(store, id).get() }
    try store.reopen()
    expectRefused(try add(store, "d"))
    let counted = try store.db.pool.read { db in try Int.fetchOne(db, sql: "SELECT count FROM app_pending WHERE app = 'app'") }
    #expect(counted == 3)
  }

  /// `app_pending` against the rows it counts.
  func expectCountsMatchRows(_ store: StoreFixture, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (counted, rows) = try store.db.pool.read { db in
      (try Row.fetchAll(db, sql: "SELECT app, count FROM app_pending WHERE count > 0 ORDER BY app").map { "\($0[0] as String)=\($0[1] as Int64)" },
       try Row.fetchAll(db, sql: "SELECT app, COUNT(*) FROM pending GROUP BY app ORDER BY app").map { "\($0[0] as String)=\($0[1] as Int64)" })
    }
    #expect(counted == rows, sourceLocation: sourceLocation)
  }

  /// In one batch (one transaction), each add sees the adds and removals before it, a refused
  /// or rolled-back mutation counts nothing, and what is committed is what the rows say.
  @Test func withinABatchEachAddSeesTheOnesBeforeIt() throws {
    let store = try StoreFixture(quota: 1000)
    func add(_ id: String, app: String = "app", files: [(String, UInt64)] = []) -> any Mutation {
      AddPending(app: app, pending: Fixtures.pending(AttachmentAccountingTests.request(id, files: files), added: t0), at: t0, limit: 3)
    }
    let results = store.db.commit([
      add("a"), add("b"), add("other-1", app: "other"),
      add("c", files: [("/s/c.png", 2000)]),  // over the quota after its row is written: rolled back
      add("c"), add("d"),  // the third is "c"; "d" would be a fourth
      Remove.removePending(app: "app", identifiers: ["b"], at: t0),
      add("d"), add("a"),  // room again for "d"; "a" replaces
      add("e"),
    ])
    let outcomes = results.map { result in (try? result.get()) != nil ? "ok" : (result.failure?.reason ?? "?") }
    #expect(outcomes == ["ok", "ok", "ok", "ATTACHMENT_QUOTA_EXCEEDED", "ok", "PENDING_LIMIT", "ok", "ok", "ok", "PENDING_LIMIT"])
    #expect(try store.allPending("app").map(\.request.identifier).sorted() == ["a", "c", "d"])
    try expectCountsMatchRows(store)
    // Removing everything in a batch with an add after it.
    _ = store.db.commit([Remove.removePending(app: "app", identifiers: nil, at: t0), add("f"), add("g", app: "other")])
    try expectCountsMatchRows(store)
    #expect(try store.allPending("app").map(\.request.identifier) == ["f"])
    try store.reopen()
    try expectCountsMatchRows(store)
  }
  /// An app already at its limit from earlier transactions: in one batch, the first add (whose
  /// row is inserted, then refused and rolled back) and a replacement (which the insert
  /// itself tells apart from a new identifier) leave the count as it was; a removal then
  /// makes room for exactly one.
  @Test func aBatchStartingAtTheLimitRefusesThenMakesRoom() throws {
    let store = try StoreFixture()
    for id in ["a", "b", "c"] { _ = try add(store, id).get() }
    func adding(_ id: String, after seconds: Double = 60) -> any Mutation {
      AddPending(app: "app", pending: Fixtures.pending(Fixtures.request(id, after: seconds), added: t0), at: t0, limit: 3)
    }
    let results = store.db.commit([
      adding("x"), adding("a", after: 300), adding("x"),
      Remove.removePending(app: "app", identifiers: ["b"], at: t0),
      adding("x"), adding("y"),
    ])
    let outcomes = results.map { result in (try? result.get()) != nil ? "ok" : (result.failure?.reason ?? "?") }
    #expect(outcomes == ["PENDING_LIMIT", "ok", "PENDING_LIMIT", "ok", "ok", "PENDING_LIMIT"])
    #expect(try store.allPending("app").map(\.request.identifier).sorted() == ["a", "c", "x"])
    // The replacement replaced: its new fire time, and an event that says so.
    let replaced = try #require(try store.db.pending(app: "app", identifier: "a"))
    #expect(replaced.nextFire == t0.adding(millis: 300_000))
    let events = try store.db.events(app: "app", after: 0, limit: 100).map(\.kind)
    #expect(events.filter { $0 == .pendingReplaced }.count == 1)
    #expect(events.filter { $0 == .pendingAdded }.count == 4, "a, b, c, then x")
    try expectCountsMatchRows(store)
  }
}
