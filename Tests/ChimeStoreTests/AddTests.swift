import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct AddTests {
  @Test func addStoresThePendingRequestAndAppendsAnEvent() throws {
    let store = try StoreFixture()
    let pending = Fixtures.pending(Fixtures.request("a", after: 90), added: t0)
    let outcome = try store.commit(.add(app: "com.example", pending: pending, at: t0))

    #expect(outcome.replaced == false)
    #expect(outcome.events == [Event(cursor: 1, at: t0, kind: .pendingAdded, identifiers: ["a"], pending: pending)])
    #expect(try store.db.pending(app: "com.example", identifier: "a") == pending)
    #expect(try store.db.pending(app: "com.example", identifier: "b") == nil)
    #expect(try store.db.events(app: "com.example", after: 0, limit: 10) == outcome.events)
    #expect(try store.db.pendingCount() == 1)
    #expect(try store.db.lastCursor() == 1)
  }

  @Test func addWithTheSameIdentifierReplacesWholesale() throws {
    let store = try StoreFixture()
    let first = Fixtures.pending(Fixtures.request("a", after: 60, repeats: true, title: "first"), added: t0)
    try store.commit(.add(app: "app", pending: first, at: t0))
    // Advance it so fire_count is 1, then replace: everything comes from the new request.
    try store.fire(ScheduleKey(due: first.nextFire, app: "app", identifier: "a"), now: first.nextFire, missedGraceMillis: 2000)

    let later = t0.adding(seconds: 100)
    let second = Fixtures.pending(Fixtures.request("a", after: 3600, title: "second"), added: later)
    let outcome = try store.commit(.add(app: "app", pending: second, at: later))

    #expect(outcome.replaced)
    #expect(outcome.events.map(\.kind) == [.pendingReplaced])
    #expect(outcome.events[0].pending == second)
    #expect(outcome.events[0].at == later)
    let stored = try #require(try store.db.pending(app: "app", identifier: "a"))
    #expect(stored == second)
    #expect(stored.fireCount == 0)
    #expect(try store.db.pendingCount() == 1)
    #expect(try store.db.soonest(after: nil, limit: 10) == [ScheduleKey(due: second.nextFire, app: "app", identifier: "a")])
  }

  @Test func deliverNowRecordsDeliveredAndReplacesAPendingRequest() throws {
    let store = try StoreFixture()
    try store.add("app", Fixtures.request("a"))
    let at = t0.adding(seconds: 5)
    let request = NotificationRequest(identifier: "a", content: NotificationContent(title: "now"))
    let delivered = DeliveredNotification(request: request, delivered: at, due: at)
    let outcome = try store.commit(.deliverNow(app: "app", delivered: delivered, at: at))

    #expect(outcome.replaced)
    #expect(outcome.events.map(\.kind) == [.pendingRemoved, .delivered])
    #expect(outcome.events.map(\.cursor) == [2, 3])
    #expect(outcome.events[1].delivered == delivered)
    #expect(outcome.events.allSatisfy { $0.at == at && $0.identifiers == ["a"] })
    #expect(try store.db.pending(app: "app", identifier: "a") == nil)
    #expect(try store.db.soonest(after: nil, limit: 10).isEmpty)
    #expect(try store.allDelivered("app") == [delivered])

    // Again with the same identifier: the delivered notification is replaced, nothing pending.
    let again = DeliveredNotification(request: request, delivered: at.adding(seconds: 1), due: at.adding(seconds: 1))
    let second = try store.commit(.deliverNow(app: "app", delivered: again, at: at.adding(seconds: 1)))
    #expect(second.replaced == false)
    #expect(second.events.map(\.kind) == [.delivered])
    #expect(try store.allDelivered("app") == [again])
  }

  @Test func appsAreIsolated() throws {
    let store = try StoreFixture()
    for app in ["com.a", "com.b"] {
      try store.add(app, Fixtures.request("same", title: app))
      try store.add(app, Fixtures.request("only-\(app)", title: app))
      try store.deliverNow(app, "shown", at: t0, title: app)
    }
    for app in ["com.a", "com.b"] {
      let other = app == "com.a" ? "com.b" : "com.a"
      #expect(try store.allPending(app).map(\.request.identifier) == ["only-\(app)", "same"].sorted())
      #expect(try store.allPending(app).allSatisfy { $0.request.content.title == app })
      #expect(try store.allDelivered(app).map(\.request.content.title) == [app])
      #expect(try store.db.pending(app: app, identifier: "only-\(other)") == nil)
      #expect(try store.db.events(app: app, after: 0, limit: 100).allSatisfy {
        $0.pending.map { $0.request.content.title == app } ?? $0.delivered.map { $0.request.content.title == app } ?? false
      })
      #expect(try store.db.events(app: app, after: 0, limit: 100).count == 3)
    }
    // Removing all of A's rows leaves B's.
    #expect(try store.commit(.removePending(app: "com.a", identifiers: nil, at: t0)).removed == ["only-com.a", "same"])
    #expect(try store.commit(.removeDelivered(app: "com.a", identifiers: nil, at: t0)).removed == ["shown"])
    #expect(try store.commit(.removePending(app: "com.a", identifiers: ["only-com.b"], at: t0)).removed == [])
    #expect(try store.allPending("com.b").count == 2)
    #expect(try store.allDelivered("com.b").count == 1)
    // A fire keyed to the wrong app is stale.
    let key = ScheduleKey(due: t0.adding(seconds: 60), app: "com.a", identifier: "only-com.b")
    #expect(try store.fire(key, now: key.due, missedGraceMillis: 2000).isStale)
    #expect(try store.allPending("com.b").count == 2)
  }

  @Test func emptyAppOrIdentifierIsRefused() throws {
    let store = try StoreFixture()
    let results = store.db.commit([
      .add(app: "", pending: Fixtures.pending(Fixtures.request("a"), added: t0), at: t0),
      .add(app: "app", pending: Fixtures.pending(Fixtures.request(""), added: t0), at: t0),
    ])
    #expect(results[0].failure?.reason == "INVALID_APP_ID")
    #expect(results[1].failure?.reason == "INVALID_IDENTIFIER")
    #expect(results.allSatisfy { $0.failure?.code == .invalidArgument })
    #expect(try store.db.pendingCount() == 0)
    #expect(try store.db.lastCursor() == 0)
  }
}
