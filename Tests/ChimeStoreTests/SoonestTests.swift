import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct SoonestTests {
  @Test func keysetPagingAcrossAppsWithEqualDueInstants() throws {
    let store = try StoreFixture()
    // Three apps, identifiers that collide across apps, four distinct due instants.
    var mutations: [AddPending] = []
    for app in ["com.c", "com.a", "com.b"] {
      for (i, id) in ["y", "x", "z", "w"].enumerated() {
        let pending = Fixtures.pending(Fixtures.request(id, after: Double(60 * (1 + i % 2))), added: t0)
        mutations.append(.add(app: app, pending: pending, at: t0))
      }
    }
    let later = Fixtures.pending(Fixtures.request("late", after: 86_400), added: t0)
    mutations.append(.add(app: "com.a", pending: later, at: t0))
    #expect(store.db.commit(mutations).allSatisfy { (try? $0.get()) != nil })

    var expected: [ScheduleKey] = []
    for m in mutations {
      expected.append(ScheduleKey(due: m.pending.nextFire, app: m.app, identifier: m.pending.request.identifier))
    }
    expected.sort()

    var seen: [ScheduleKey] = []
    var after: ScheduleKey?
    for _ in 0..<20 {
      let page = try store.db.soonest(after: after, limit: 5)
      #expect(page.count <= 5)
      seen += page
      guard let last = page.last else { break }
      after = last
    }
    #expect(seen == expected)
    #expect(seen.count == 13)
    #expect(try store.db.soonest(after: nil, limit: 3) == Array(expected.prefix(3)))
    #expect(try store.db.soonest(after: expected.last, limit: 3).isEmpty)
    #expect(try store.db.soonest(after: nil, limit: 0).isEmpty)
    // A key that is not stored still positions the page.
    let between = ScheduleKey(due: expected[0].due, app: "com.b", identifier: "a")
    #expect(try store.db.soonest(after: between, limit: 100) == Array(expected.drop { $0 <= between }))
  }

  /// Listings must walk an index: no full scan of a table and no temporary sort, so they
  /// cost O(page) however many rows are stored.
  @Test(arguments: Queries.all)
  func listingQueriesWalkAnIndex(sql: String) throws {
    let store = try StoreFixture()
    let plan = try store.db.pool.read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments((0..<sql.count { $0 == "?" }).map { _ in 0 }))
        .map { try $0.decode(String.self, atIndex: 3) }  // id, parent, notused, detail
    }
    let text = plan.joined(separator: "; ")
    #expect(!text.contains("TEMP B-TREE"), "\(text)")
    #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("INDEX") }, "\(text)")
    #expect(text.contains("INDEX") || text.contains("PRIMARY KEY"), "\(text)")
  }

  /// Retention runs in every commit once the log is full: it must cost O(pruned), reading
  /// only the rowid range it deletes.
  @Test func pruningReadsOnlyThePrunedRange() throws {
    let store = try StoreFixture()
    let plan = try store.db.pool.read { db in
      try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Queries.recordPruned, arguments: [0]).map { try $0.decode(String.self, atIndex: 3) }
    }
    #expect(plan.contains { $0.contains("SEARCH event USING INTEGER PRIMARY KEY (rowid<?)") }, "\(plan)")
    #expect(!plan.contains { $0.contains("event_by_app") }, "\(plan)")
  }
}
