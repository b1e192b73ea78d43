import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct EventTests {
  @Test func eventsResumeAfterACursor() throws {
    let store = try StoreFixture()
    for i in 0..<6 {
      try store.add(i % 2 == 0 ? "app" : "other", Fixtures.request("r\(i)"), at: t0.adding(seconds: Double(i)))
    }
    let all = try store.db.events(app: "app", after: 0, limit: 100)
    #expect(all.map(\.cursor) == [1, 3, 5])
    #expect(all.map(\.at) == [t0, t0.adding(seconds: 2), t0.adding(seconds: 4)])
    #expect(try store.db.events(app: "app", after: 1, limit: 100).map(\.cursor) == [3, 5])
    #expect(try store.db.events(app: "app", after: 1, limit: 1).map(\.cursor) == [3])
    #expect(try store.db.events(app: "app", after: 5, limit: 100).isEmpty)
    #expect(try store.db.events(app: "app", after: UInt64.max, limit: 100).isEmpty)
    #expect(try store.db.events(app: "other", after: 0, limit: 100).map(\.cursor) == [2, 4, 6])
    #expect(try store.db.lastCursor() == 6)
  }

  /// In one batch each event's cursor is one past the one before, also past a pruned log and
  /// with a refused add between them, and what the outcomes say is what is stored.
  @Test func aBatchsEventsTakeTheNextCursorsInOrder() throws {
    let store = try StoreFixture(retention: 4, quota: 1000)
    for i in 0..<6 { try store.add("app", Fixtures.request("early-\(i)")) }  // 1 and 2 pruned
    func add(_ id: String, app: String = "app", bytes: UInt64 = 0) -> any Mutation {
      let request = AttachmentAccountingTests.request(id, files: bytes == 0 ? [] : [("/s/\(id).png", bytes)])
      return AddPending(app: app, pending: Fixtures.pending(request, added: t0), at: t0)
    }
    let results = store.db.commit([add("a"), add("b", app: "other"), add("c", bytes: 2000), add("d")])
    let cursors = results.map { result in (try? result.get()).flatMap { ($0 as? AddPending.Outcome)?.events.first?.cursor } }
    #expect(cursors == [7, 8, nil, 9], "the refused add (over the quota) takes no cursor")
    #expect(try store.db.events(app: "app", after: 6, limit: 10).map(\.cursor) == [7, 9])
    #expect(try store.db.events(app: "other", after: 0, limit: 10).map(\.cursor) == [8])
    try store.reopen()
    try store.add("app", Fixtures.request("e"))
    #expect(try store.db.lastCursor() == 10)
  }

  @Test func retentionPrunesTheOldestAndReportsEventsLost() throws {
    let store = try StoreFixture(retention: 5)
    // app: cursors 1...8; quiet: cursor 9 only, after every prune of app's events.
    for i in 0..<8 { try store.add("app", Fixtures.request("r\(i)"), at: t0.adding(seconds: Double(i))) }
    try store.add("quiet", Fixtures.request("q"))
    #expect(try store.db.eventCount() == 5)
    #expect(try store.db.lastCursor() == 9)

    let resumed = try store.db.events(app: "app", after: 2, limit: 100)
    #expect(resumed.first?.kind == .eventsLost)
    #expect(resumed.first?.cursor == 0)
    #expect(resumed.first?.at == t0.adding(seconds: 3))  // the newest pruned event of the app
    #expect(resumed.dropFirst().map(\.cursor) == [5, 6, 7, 8])
    // The lost marker comes in addition to `limit` stored events, so a reader progresses.
    #expect(try store.db.events(app: "app", after: 0, limit: 1).map(\.cursor) == [0, 5])
    // From the pruning watermark on, nothing was lost.
    #expect(try store.db.events(app: "app", after: 4, limit: 100).map(\.cursor) == [5, 6, 7, 8])
    #expect(try store.db.events(app: "app", after: 6, limit: 100).map(\.cursor) == [7, 8])
    // The quiet app lost nothing, even resuming from 0.
    #expect(try store.db.events(app: "quiet", after: 0, limit: 100).map(\.cursor) == [9])
  }

  @Test func cursorsAreNeverReusedAcrossPruningAndReopen() throws {
    let store = try StoreFixture(retention: 2)
    for i in 0..<4 { try store.add("app", Fixtures.request("r\(i)")) }
    try store.commit(.removePending(app: "app", identifiers: nil, at: t0))
    #expect(try store.db.lastCursor() == 5)
    try store.reopen()
    #expect(try store.db.lastCursor() == 5)
    #expect(try store.db.events(app: "app", after: 0, limit: 10).map(\.cursor) == [0, 4, 5])
    #expect(try store.commit(.removePending(app: "app", identifiers: nil, at: t0)).events.isEmpty)
    #expect(try store.add("app", Fixtures.request("x")).request.identifier == "x")
    #expect(try store.db.lastCursor() == 6)
  }

  /// A change that appends an event and then fails: its savepoint gives the event back.
  struct AppendsThenFails: Mutation {
    let app = "app"
    func apply(in transaction: WriteTransaction) throws -> Int {
      _ = try transaction.append(Event(at: t0, kind: .badgeChanged, badgeCount: 1), app: app)
      throw ChimeError(.invalidIdentifier, "refused after appending")
    }
  }

  /// Retention counts the events that stay: a mutation rolled back at the end of a batch after
  /// appending one does not move the cutoff (its cursor is given back and never stored).
  @Test func retentionIgnoresTheEventsOfAMutationRolledBack() throws {
    let store = try StoreFixture(retention: 3)
    for i in 0..<3 { try store.add("app", Fixtures.request("r\(i)")) }
    let pending = Fixtures.pending(Fixtures.request("r3"), added: t0)
    let results = store.db.commit([AddPending(app: "app", pending: pending, at: t0), AppendsThenFails()])
    #expect((try? results[0].get()) != nil)
    #expect((try? results[1].get()) == nil)
    #expect(try store.db.eventCount() == 3)
    #expect(try store.db.lastCursor() == 4)
    #expect(try store.db.events(app: "app", after: 1, limit: 10).map(\.cursor) == [2, 3, 4])
  }
}

extension EventTests {
  /// A full log is pruned in steps of a sixty-fourth, not at every commit: up to that many
  /// events past the bound wait, then one commit prunes back to exactly the bound.
  @Test func aLargeLogIsPrunedInSteps() throws {
    let store = try StoreFixture(retention: 128)  // a step of 2
    for i in 0..<130 { try store.add("app", Fixtures.request("r\(i)")) }
    #expect(try store.db.eventCount() == 130, "two past the bound wait for the next step")
    try store.add("app", Fixtures.request("r130"))
    #expect(try store.db.eventCount() == 128, "the step prunes back to the bound")
    #expect(try store.db.events(app: "app", after: 0, limit: 1).map(\.cursor) == [0, 4])
    #expect(try store.db.lastCursor() == 131)
  }
}
