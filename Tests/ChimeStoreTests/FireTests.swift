import ChimeCore
import GRDB
import Synchronization
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
    let outcome = try store.commit(.fire(key: key(pending), now: now, missedGraceMillis: grace))

    let expected = DeliveredNotification(request: pending.request, delivered: now, due: pending.nextFire, missed: false, sound: pending.sound)
    #expect(outcome.stale == false)
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
      let outcome = try store.commit(.fire(key: ScheduleKey(due: due, app: "app", identifier: "r"), now: due, missedGraceMillis: grace))
      let next = due.adding(seconds: 60)
      #expect(outcome.next == ScheduleKey(due: next, app: "app", identifier: "r"))
      #expect(outcome.delivered?.due == due)
      #expect(outcome.delivered?.missed == false)
      #expect(outcome.pending?.nextFire == next)
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
    let outcome = try store.commit(.fire(key: key(pending), now: now, missedGraceMillis: grace))

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
    let outcome = try store.commit(.fire(key: key(pending), now: now, missedGraceMillis: grace))

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
    let outcome = try store.commit(.fire(key: key(pending), now: pending.nextFire.adding(millis: grace), missedGraceMillis: grace))
    #expect(outcome.delivered?.missed == false)
    #expect(outcome.events.map(\.kind) == [.delivered])
  }

  @Test(arguments: [(100.0, true), (299.0, true), (300.0, false), (4000.0, false)])
  func deliverIfLateByLessThan(lateSeconds: Double, delivers: Bool) throws {
    let store = try StoreFixture()
    let policy = MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: 300)
    let pending = try store.add("app", Fixtures.request("l", after: 60, repeats: true, missedFire: policy))
    let now = pending.nextFire.adding(seconds: lateSeconds)
    let outcome = try store.commit(.fire(key: key(pending), now: now, missedGraceMillis: grace))

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

    let stale = try store.commit(.fire(key: key(old), now: old.nextFire, missedGraceMillis: grace))
    #expect(stale == MutationOutcome(stale: true))
    #expect(try store.db.pending(app: "app", identifier: "a") == replacement)
    #expect(try store.allDelivered("app").isEmpty)
    #expect(try store.db.lastCursor() == cursor)

    try store.commit(.removePending(app: "app", identifiers: ["a"], at: t0))
    #expect(try store.commit(.fire(key: key(replacement), now: replacement.nextFire, missedGraceMillis: grace)).stale)
    #expect(try store.allDelivered("app").isEmpty)
  }

  @Test func aRepeatingRequestFiredTwiceWithTheSameKeyFiresOnce() throws {
    let store = try StoreFixture()
    let pending = try store.add("app", Fixtures.request("r", after: 60, repeats: true))
    let results = store.db.commit([
      .fire(key: key(pending), now: pending.nextFire, missedGraceMillis: grace),
      .fire(key: key(pending), now: pending.nextFire, missedGraceMillis: grace),
    ])
    #expect(try results[0].get().delivered != nil)
    #expect(try results[1].get().stale)
    #expect(try store.db.pending(app: "app", identifier: "r")?.fireCount == 1)
  }
}

@Suite struct FireSoundCheckTests {
  private func namedSoundRequest(_ store: StoreFixture) throws -> PendingRequest {
    let request = Fixtures.request("s", after: 60)
    var pending = Fixtures.pending(request, added: t0)
    var sound = SoundResolution(plays: .named)
    sound.path = "/apps/app/container/Library/Sounds/ding.wav"
    pending.sound = sound
    try store.commit(.add(app: "app", pending: pending, at: t0))
    return pending
  }

  @Test func theCheckIsGivenTheAppsRegisteredLayout() throws {
    let store = try StoreFixture()
    let layout = AppLayout(appID: "app", container: "/c", groupContainers: ["/g1", "/g2"], bundle: "/b")
    try store.commit(.registerApp(layout: layout, at: t0))
    let pending = try namedSoundRequest(store)
    let seen = Mutex<AppLayout??>(nil)
    let outcome = try store.commit(.fire(key: ScheduleKey(due: pending.nextFire, app: "app", identifier: "s"), now: pending.nextFire,
                                         missedGraceMillis: 2000, soundCheck: { resolved, _, registered in
                                           seen.withLock { $0 = .some(registered) }
                                           return resolved
                                         }))
    #expect(seen.withLock { $0 } == .some(layout))
    #expect(outcome.delivered?.sound?.plays == .named)
  }

  @Test func anUnreadableRegistrationStillDeliversCheckedAgainstTheDefaultLayout() throws {
    let store = try StoreFixture()
    try store.commit(.registerApp(layout: AppLayout(appID: "app", container: "/c", groupContainers: [], bundle: "/b"), at: t0))
    try store.db.pool.write { try $0.execute(sql: "UPDATE app SET groups = 'not json' WHERE id = 'app'") }
    let pending = try namedSoundRequest(store)
    let seen = Mutex<AppLayout??>(nil)
    let outcome = try store.commit(.fire(key: ScheduleKey(due: pending.nextFire, app: "app", identifier: "s"), now: pending.nextFire,
                                         missedGraceMillis: 2000, soundCheck: { _, _, registered in
                                           seen.withLock { $0 = .some(registered) }
                                           return SoundResolution(plays: .default)
                                         }))
    #expect(seen.withLock { $0 } == .some(nil), "the check runs, told there is no usable registration")
    #expect(outcome.delivered?.sound?.plays == .default)
    #expect(try store.db.pending(app: "app", identifier: "s") == nil)
  }
}
