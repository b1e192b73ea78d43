import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct AuthorizationStoreTests {
  @Test func theFirstDecisionWinsAndUserChangesOverwrite() throws {
    let store = try StoreFixture()
    let first = try store.commit(SetAuthorization(app: "com.a", status: .authorized, granted: [.alert], firstDecision: true, at: t0))
    #expect(first == AppAuthorization(status: .authorized, granted: [.alert]))
    let racing = try store.commit(SetAuthorization(app: "com.a", status: .denied, granted: [], firstDecision: true, at: t0))
    #expect(racing == first)
    let user = try store.commit(SetAuthorization(app: "com.a", status: .denied, granted: [.alert], firstDecision: false, at: t0))
    #expect(user.status == .denied)
    #expect(try store.db.authorization("com.b") == .none)
    #expect(try store.db.authorizations() == ["com.a": user])
  }

  @Test func badgeChangesAreEventsAndNegativeCountsAreRefused() throws {
    let store = try StoreFixture()
    let set = try store.commit(SetBadge(app: "com.a", count: 4, at: t0))
    #expect(set.events.map(\.kind) == [.badgeChanged])
    #expect(set.events.first?.badgeCount == 4)
    #expect(try store.commit(SetBadge(app: "com.a", count: 4, at: t0)).events.isEmpty)
    #expect(throws: ChimeError.self) { try store.commit(SetBadge(app: "com.a", count: -1, at: t0)) }
    // The badge keeps the decision, and a decision keeps the badge.
    _ = try store.commit(SetAuthorization(app: "com.a", status: .authorized, granted: nil, firstDecision: true, at: t0))
    #expect(try store.db.authorization("com.a") == AppAuthorization(status: .authorized, granted: nil, badgeCount: 4))
    // The event survives a read back through the record codec.
    let replayed = try store.db.events(app: "com.a", after: 0, limit: 10)
    #expect(replayed.map(\.badgeCount) == [4])
    #expect(replayed.map(\.kind) == [.badgeChanged])
  }
}
