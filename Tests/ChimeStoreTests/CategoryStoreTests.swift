import ChimeCore
import Testing
@testable import ChimeStore

/// SetCategories, the category snapshot a delivery takes in its own transaction, and
/// RecordResponse on a temporary store.
@Suite struct CategoryStoreTests {
  let invite = NotificationCategory(identifier: "invite", actions: [NotificationAction(identifier: "accept", title: "Accept")],
                                    options: .customDismissAction)
  let other = NotificationCategory(identifier: "other")

  func request(_ id: String, category: String, after seconds: Double? = nil) -> NotificationRequest {
    var r = Fixtures.request(id, after: seconds ?? 60)
    if seconds == nil { r.trigger = nil }
    r.content.categoryIdentifier = category
    return r
  }

  @Test func setCategoriesReplacesAnAppsRowsInOrderAndLeavesOtherAppsAlone() throws {
    let store = try StoreFixture()
    try store.commit(.setCategories(app: "a", categories: [invite, other]))
    try store.commit(.setCategories(app: "b", categories: [other]))
    #expect(try store.db.categories(app: "a") == [invite, other])
    try store.commit(.setCategories(app: "a", categories: [other, invite]))
    #expect(try store.db.categories(app: "a") == [other, invite])
    #expect(try store.db.category(app: "a", identifier: "invite") == invite)
    #expect(try store.db.category(app: "a", identifier: "") == nil)
    try store.commit(.setCategories(app: "a", categories: []))
    #expect(try store.db.categories(app: "a").isEmpty)
    #expect(try store.db.categories(app: "b") == [other])
    try store.reopen()
    #expect(try store.db.categories(app: "b") == [other])
  }

  @Test func deliverNowAndFireTakeTheCategoryAsItIsAtTheirCommit() throws {
    let store = try StoreFixture()
    try store.commit(.setCategories(app: "app", categories: [invite]))
    let now = request("now", category: "invite")
    let outcome = try store.commit(DeliverNow(app: "app", delivered: DeliveredNotification(request: now, delivered: t0, due: t0), at: t0))
    #expect(outcome.delivered.category == invite)
    #expect(outcome.events.last?.delivered?.category == invite)

    let pending = try store.add("app", request("later", category: "invite", after: 60))
    var changed = invite
    changed.actions = []
    try store.commit(.setCategories(app: "app", categories: [changed]))
    let fired = try store.fire(ScheduleKey(due: pending.nextFire, app: "app", identifier: "later"), now: pending.nextFire, missedGraceMillis: 2000)
    #expect(fired.delivered?.category == changed)

    let none = try store.commit(DeliverNow(app: "app", delivered: DeliveredNotification(request: request("none", category: "missing"), delivered: t0, due: t0), at: t0))
    #expect(none.delivered.category == nil)
    try store.commit(.setCategories(app: "app", categories: []))
    let stored = Dictionary(uniqueKeysWithValues: try store.allDelivered("app").map { ($0.request.identifier, $0) })
    #expect(stored["now"]?.category == invite)
    #expect(stored["later"]?.category == changed)
    #expect(stored["none"] != nil && stored["none"]?.category == nil)
  }

  @Test func recordResponseFollowsItsPlanAndRefusesAChangedNotification() throws {
    let store = try StoreFixture()
    try store.commit(.setCategories(app: "app", categories: [invite]))
    for id in ["a", "b", "c"] {
      try store.commit(DeliverNow(app: "app", delivered: DeliveredNotification(request: request(id, category: "invite"), delivered: t0, due: t0), at: t0))
    }
    let at = t0.adding(seconds: 5)
    func checked(_ id: String) throws -> DeliveredNotification { try #require(try store.db.delivered(app: "app", identifier: id)) }
    func response(_ id: String) -> NotificationResponse { NotificationResponse(notificationIdentifier: id, actionIdentifier: "accept", at: at) }

    let a = try store.commit(RecordResponse(app: "app", response: response("a"), checked: try checked("a"),
                                            plan: ResponsePlan(removesDelivered: true, forwardsToApp: true)))
    #expect(a.removed)
    #expect(a.events.map(\.kind) == [.response, .deliveredRemoved])
    #expect(a.events[0].response == response("a") && a.events[0].identifiers == ["a"])
    #expect(try store.db.events(app: "app", after: 0, limit: 100).suffix(2) == a.events[...])

    // An extension said doNotDismiss: nothing is recorded and the notification stays.
    let b = try store.commit(RecordResponse(app: "app", response: response("b"), checked: try checked("b"),
                                            plan: ResponsePlan(removesDelivered: false, forwardsToApp: false)))
    #expect(!b.removed && b.events.isEmpty)
    #expect(try store.db.delivered(app: "app", identifier: "b") != nil)

    // Delivered again after it was checked: the response is refused, nothing changes.
    let stale = try checked("c")
    try store.commit(DeliverNow(app: "app", delivered: DeliveredNotification(request: request("c", category: "invite"), delivered: at, due: at), at: at))
    let refused = store.db.commit(RecordResponse(app: "app", response: response("c"), checked: stale,
                                                 plan: ResponsePlan(removesDelivered: true, forwardsToApp: true)))
    #expect(refused.failure?.reason == "NOTIFICATION_NOT_DELIVERED")
    #expect(try store.db.delivered(app: "app", identifier: "c")?.delivered == at)
    // Already removed: refused too.
    let gone = store.db.commit(RecordResponse(app: "app", response: response("a"), checked: stale, plan: ResponsePlan(removesDelivered: true, forwardsToApp: true)))
    #expect(gone.failure?.reason == "NOTIFICATION_NOT_DELIVERED")
  }
}
