import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct RemoveTests {
  @Test func removePendingByIdentifiersListsThoseThatExisted() throws {
    let store = try StoreFixture()
    for id in ["c", "a", "b", "d"] { try store.add("app", Fixtures.request(id)) }
    let at = t0.adding(seconds: 1)
    let outcome = try store.commit(.removePending(app: "app", identifiers: ["d", "missing", "a", "d"], at: at))
    #expect(outcome.removed == ["a", "d"])
    #expect(outcome.events == [Event(cursor: 5, at: at, kind: .pendingRemoved, identifiers: ["a", "d"])])
    #expect(try store.allPending("app").map(\.request.identifier) == ["b", "c"])
    #expect(try store.db.soonest(after: nil, limit: 10).map(\.identifier) == ["b", "c"])

    let nothing = try store.commit(.removePending(app: "app", identifiers: ["missing"], at: at))
    #expect(nothing.removed.isEmpty)
    #expect(nothing.events.isEmpty)
    #expect(try store.db.lastCursor() == 5)

    let all = try store.commit(.removePending(app: "app", identifiers: nil, at: at))
    #expect(all.removed == ["b", "c"])
    #expect(all.events.map(\.kind) == [.pendingRemoved])
    #expect(try store.allPending("app").isEmpty)
    #expect(try store.commit(.removePending(app: "app", identifiers: nil, at: at)).events.isEmpty)
  }

  @Test func removeDeliveredByIdentifiersAndAll() throws {
    let store = try StoreFixture()
    for id in ["x", "y", "z"] { try store.deliverNow("app", id, at: t0) }
    try store.add("app", Fixtures.request("x"))
    let at = t0.adding(seconds: 1)

    let outcome = try store.commit(.removeDelivered(app: "app", identifiers: ["z", "x", "nope"], at: at))
    #expect(outcome.removed == ["x", "z"])
    #expect(outcome.events.map(\.kind) == [.deliveredRemoved])
    #expect(outcome.events[0].identifiers == ["x", "z"])
    #expect(try store.allDelivered("app").map(\.request.identifier) == ["y"])
    // Removing a delivered notification leaves the pending request of the same identifier.
    #expect(try store.db.pending(app: "app", identifier: "x") != nil)

    let all = try store.commit(.removeDelivered(app: "app", identifiers: nil, at: at))
    #expect(all.removed == ["y"])
    #expect(try store.allDelivered("app").isEmpty)
    let none = try store.commit(.removeDelivered(app: "app", identifiers: [], at: at))
    #expect(none.removed.isEmpty && none.events.isEmpty && none.discardedFiles.isEmpty)
  }

  /// Swift equates canonically equivalent strings; SQLite keeps their bytes apart. The store
  /// goes by bytes everywhere.
  @Test func canonicallyEquivalentIdentifiersAreDistinctRows() throws {
    let store = try StoreFixture()
    let decomposed = "e\u{301}", precomposed = "\u{e9}"
    try store.add("app", Fixtures.request(decomposed))
    try store.add("app", Fixtures.request(precomposed))
    #expect(try store.db.pendingCount() == 2)
    let outcome = try store.commit(.removePending(app: "app", identifiers: [decomposed, precomposed], at: t0))
    #expect(outcome.removed.count == 2)
    #expect(Set(outcome.removed.map { Array($0.utf8) }) == [Array(decomposed.utf8), Array(precomposed.utf8)])
    #expect(try store.db.pendingCount() == 0)
  }
}
