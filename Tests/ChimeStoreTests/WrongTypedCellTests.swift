import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// A cell of another type than its column's (SQLite keeps one whatever the declared type or NOT
/// NULL says; a damaged or hand-edited store can hold it) is read with the throwing `Row.decode`:
/// the read answers INTERNAL `STORE_CORRUPT` naming the record, instead of trapping in a `row[i]`
/// subscript, which would stop the process (the end-to-end `DamagedRowTests` checks chimed).
@Suite struct WrongTypedCellTests {
  func expectCorrupt<T>(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ read: () throws(ChimeError) -> T) {
    do {
      let value = try read()
      Issue.record("a damaged \(what) was read: \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.has(.storeCorrupt), "\(error)", sourceLocation: sourceLocation)
      #expect(error.code == .internal, sourceLocation: sourceLocation)
      #expect(error.message == "a stored \(what) could not be read", "\(error.message)", sourceLocation: sourceLocation)
    }
  }

  /// Runs `sql` on the closed store, then reopens it.
  func damage(_ store: StoreFixture, _ sql: String) throws {
    store.db.close()
    let queue = try DatabaseQueue(path: store.path)
    try queue.write { db in try db.execute(sql: sql) }
    queue.close()
    try store.reopen()
  }

  @Test func aPendingBodyOfAnotherTypeIsCorruptAndTheRowIsUnreadableWhenDue() throws {
    let store = try StoreFixture()
    let bad = try store.add("a", Fixtures.request("bad"))
    let good = try store.add("a", Fixtures.request("good", after: 120))
    try damage(store, "UPDATE pending SET body = 42 WHERE identifier = 'bad'")
    expectCorrupt("pending request") { () throws(ChimeError) in try store.db.pending(app: "a", identifier: "bad") }
    expectCorrupt("pending request") { () throws(ChimeError) in try store.db.pendingPage(app: "a", page: PageRequest()) }
    #expect(try store.db.pending(app: "a", identifier: "good") == good)
    let rows = try store.db.dueRows([ScheduleKey(due: bad.nextFire, app: "a", identifier: "bad"),
                                     ScheduleKey(due: good.nextFire, app: "a", identifier: "good")])
    guard case .unreadable(let error) = rows[0] else { Issue.record("\(rows[0])"); return }
    #expect(error.has(.storeCorrupt))
    guard case .current(let row) = rows[1] else { Issue.record("\(rows[1])"); return }
    #expect(row.pending == good)
  }

  @Test func aDueInstantOfAnotherTypeMakesTheRowUnreadable() throws {
    let store = try StoreFixture()
    let bad = try store.add("a", Fixtures.request("bad"))
    try damage(store, "UPDATE pending SET next_fire = 'soon' WHERE identifier = 'bad'")
    let rows = try store.db.dueRows([ScheduleKey(due: bad.nextFire, app: "a", identifier: "bad")])
    guard case .unreadable = rows[0] else { Issue.record("\(rows[0])"); return }
    expectCorrupt("pending request") { () throws(ChimeError) in try store.db.pending(app: "a", identifier: "bad") }
  }

  @Test func aDeliveredBodyOfAnotherTypeIsCorrupt() throws {
    let store = try StoreFixture()
    try store.deliverNow("a", "bad", at: t0)
    try damage(store, "UPDATE delivered SET body = 42")
    expectCorrupt("delivered notification") { () throws(ChimeError) in try store.db.delivered(app: "a", identifier: "bad") }
    expectCorrupt("delivered notification") { () throws(ChimeError) in try store.db.deliveredPage(app: "a", page: PageRequest()) }
    #expect(try store.db.deliveredPage(app: "b", page: PageRequest()).items.isEmpty)
  }

  @Test func anAppRowOfAnotherTypeIsCorrupt() throws {
    let store = try StoreFixture()
    try damage(store, "INSERT INTO app (id, container, groups, bundle, registered_at) VALUES ('a', '', 3, X'00', 0)")
    expectCorrupt("app registration") { () throws(ChimeError) in try store.db.app("a") }
    expectCorrupt("app registration") { () throws(ChimeError) in try store.db.apps() }
    #expect(try store.db.app("b") == nil)
  }

  @Test func aCategoryBodyOfAnotherTypeIsCorrupt() throws {
    let store = try StoreFixture()
    try damage(store, "INSERT INTO category (app, identifier, position, body) VALUES ('a', 'c', 0, 42)")
    expectCorrupt("category") { () throws(ChimeError) in try store.db.categories(app: "a") }
    expectCorrupt("category") { () throws(ChimeError) in try store.db.category(app: "a", identifier: "c") }
  }

  /// Read for every app at start-up: a damaged row is left out there, and corrupt for its app.
  @Test func anAuthorizationRowOfAnotherTypeIsLeftOutOfAllAndCorruptAlone() throws {
    let store = try StoreFixture()
    _ = try store.commit(SetAuthorization(app: "b", status: .authorized, granted: [.alert], firstDecision: true, at: t0))
    try damage(store, "INSERT INTO app_authorization (app, status, badge_count, changed_at) VALUES ('a', 2, X'00', 0)")
    #expect(Array(try store.db.authorizations().keys) == ["b"])
    expectCorrupt("app authorization") { () throws(ChimeError) in try store.db.authorization("a") }
  }

  @Test func anEventOfAnotherTypeIsCorrupt() throws {
    let store = try StoreFixture()
    try store.add("a", Fixtures.request("r"))
    try damage(store, "UPDATE event SET body = 42")
    expectCorrupt("event") { () throws(ChimeError) in try store.db.events(app: "a", after: 0, limit: 10) }
    try damage(store, "DELETE FROM event; INSERT INTO event_pruned (app, through, at) VALUES ('a', 1, 'x')")
    expectCorrupt("event") { () throws(ChimeError) in try store.db.events(app: "a", after: 0, limit: 10) }
  }
}
