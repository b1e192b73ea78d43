import Foundation
import ChimeCore
import Testing
@testable import ChimeStore

@Suite struct FireTests {
  let grace: Int64 = 2000

  private func key(_ pending: PendingRequest, app: String = "app") -> ScheduleKey {
    ScheduleKey(due: pending.nextFire, app: app, identifier: pending.request.identifier)
  }

  @Test func oneShotFireDeliversAndRemovesThePendingRow() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("a", after: 60))
    let now = pending.nextFire.adding(millis: 15)
    let outcome = try store.fire(key(pending), now: now, missedGraceMillis: grace)

    let expected = DeliveredNotification(request: pending.request, delivered: now, due: pending.nextFire, missed: false, sound: pending.sound)
    #expect(outcome.isStale == false)
    #expect(outcome.next == nil)
    #expect(outcome.delivered == expected)
    #expect(outcome.events == [Event(cursor: 2, at: now, kind: .delivered, identifiers: ["a"], delivered: expected)])
    #expect(try store.db.pending(app: "app", identifier: "a") == nil)
    #expect(try store.db.soonest(after: nil, limit: 10).isEmpty)
    #expect(try store.allDelivered("app") == [expected])
    #expect(try store.db.events(app: "app", after: 1, limit: 10) == outcome.events)
  }

  @Test func repeatingFireAdvancesAndCountsFires() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    var due = pending.nextFire
    for n in 1...3 {
      let outcome = try store.fire(ScheduleKey(due: due, app: "app", identifier: "r"), now: due, missedGraceMillis: grace)
      let next = due.adding(seconds: 60)
      #expect(outcome.next == ScheduleKey(due: next, app: "app", identifier: "r"))
      #expect(outcome.delivered?.due == due)
      #expect(outcome.delivered?.missed == false)
      #expect(outcome.next?.due == next)
      let stored = try #require(try store.db.pending(app: "app", identifier: "r"))
      #expect(stored.nextFire == next)
      #expect(stored.fireCount == UInt64(n))
      #expect(stored.request == pending.request)
      #expect(try store.db.soonest(after: nil, limit: 10) == [ScheduleKey(due: next, app: "app", identifier: "r")])
      due = next
    }
    // One delivered notification per identifier: the latest fire.
    #expect(try store.allDelivered("app").map(\.due) == [due.adding(seconds: -60)])
  }

  @Test func repeatingFireAfterDowntimeDeliversOnceMarkedMissed() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    let now = pending.nextFire.adding(seconds: 605)  // ten occurrences missed while down
    let outcome = try store.fire(key(pending), now: now, missedGraceMillis: grace)

    #expect(outcome.delivered?.missed == true)
    #expect(outcome.delivered?.due == pending.nextFire)
    #expect(outcome.delivered?.delivered == now)
    #expect(outcome.events.map(\.kind) == [.delivered])
    let next = try #require(outcome.next).due
    #expect(next > now)
    #expect(next.adding(seconds: -60) <= now)
    #expect(next == pending.nextFire.adding(seconds: 660))
    #expect(try store.db.pending(app: "app", identifier: "r")?.fireCount == 1)
    #expect(try store.allDelivered("app").count == 1)
  }

  @Test func skipPolicyDropsAMissedFire() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("s", missedFire: MissedFirePolicy(action: .skip)))
    let now = pending.nextFire.adding(seconds: 3600)
    let outcome = try store.fire(key(pending), now: now, missedGraceMillis: grace)

    #expect(outcome.delivered == nil)
    #expect(outcome.events.map(\.kind) == [.missedSkipped])
    #expect(outcome.events[0].identifiers == ["s"])
    #expect(outcome.events[0].note.contains("skip"))
    #expect(try store.allDelivered("app").isEmpty)
    #expect(try store.db.pending(app: "app", identifier: "s") == nil)
  }

  @Test func skipPolicyStillDeliversAFireWithinTheGrace() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("s", missedFire: MissedFirePolicy(action: .skip)))
    let outcome = try store.fire(key(pending), now: pending.nextFire.adding(millis: grace), missedGraceMillis: grace)
    #expect(outcome.delivered?.missed == false)
    #expect(outcome.events.map(\.kind) == [.delivered])
  }

  @Test(arguments: [(100.0, true), (299.0, true), (300.0, false), (4000.0, false)])
  func deliverIfLateByLessThan(lateSeconds: Double, delivers: Bool) throws {
    let store = try StoreFixture()
    let policy = MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: 300)
    let pending = try store.add("app", Fixtures.request("l", after: 60, repeats: true, missedFire: policy))
    let now = pending.nextFire.adding(seconds: lateSeconds)
    let outcome = try store.fire(key(pending), now: now, missedGraceMillis: grace)

    #expect((outcome.delivered != nil) == delivers)
    #expect(outcome.delivered.map(\.missed) ?? true)
    #expect(outcome.events.map(\.kind) == [delivers ? .delivered : .missedSkipped])
    #expect(try store.allDelivered("app").count == (delivers ? 1 : 0))
    // Either way a repeating request moves on past now and counts the occurrence.
    #expect(try #require(outcome.next).due > now)
    #expect(try store.db.pending(app: "app", identifier: "l")?.fireCount == 1)
  }

  @Test func fireOfAReplacedOrRemovedRequestIsStale() throws {
    let store = try StoreFixture()
    let old = try store.add("app", Fixtures.request("a", after: 60))
    let replacement = try store.add("app", Fixtures.request("a", after: 120, title: "new"), at: t0.adding(seconds: 1))
    let cursor = try store.db.lastCursor()

    let stale = try store.fire(key(old), now: old.nextFire, missedGraceMillis: grace)
    #expect(stale.isStale)
    #expect(try store.db.pending(app: "app", identifier: "a") == replacement)
    #expect(try store.allDelivered("app").isEmpty)
    #expect(try store.db.lastCursor() == cursor)

    try store.commit(.removePending(app: "app", identifiers: ["a"], at: t0))
    #expect(try store.fire(key(replacement), now: replacement.nextFire, missedGraceMillis: grace).isStale)
    #expect(try store.allDelivered("app").isEmpty)
  }

  @Test func aRepeatingRequestFiredTwiceWithTheSameKeyFiresOnce() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    guard case .current(let row) = try store.db.dueRows([key(pending)])[0] else { Issue.record("not due"); return }
    let plan = FirePlan.decide(row.pending.request, due: row.key.due, now: pending.nextFire, missedGraceMillis: grace, zone: .utc)
    let fire = Fire(row, plan: plan, now: pending.nextFire, sound: row.pending.sound)
    let results = store.db.commit([fire, fire])
    #expect(try (results[0].get() as? Fire.Outcome)?.delivered != nil)
    #expect(try (results[1].get() as? Fire.Outcome)?.isStale == true)
    #expect(try store.db.pending(app: "app", identifier: "r")?.fireCount == 1)
  }
}
