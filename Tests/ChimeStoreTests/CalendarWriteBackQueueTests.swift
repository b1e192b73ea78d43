import ChimeCore
import ChimeTestSupport
import Testing
@testable import ChimeStore

/// The calendar write-back queue (v15): what the user does with a calendar's notification is
/// queued by the transaction that commits it, so a dismissal or snooze committed just before
/// chimed is killed is still written into the item at the next start; the calendar's own
/// withdrawals queue nothing; a run's entries leave the queue with its record.
@Suite struct CalendarWriteBackQueueTests {
  let app = CalendarSource.appID(for: "work")
  let tenMinutes = try! SnoozeDuration(seconds: 600)
  let fired = t0.adding(millis: 60_000)

  /// The calendar "work" with alarms "a" and "b" delivered.
  func delivered() throws -> StoreFixture {
    let store = try StoreFixture()
    try store.commit(AddCalendarSource(source: CalendarSource(name: "work", path: "/cal", added: t0), categories: []))
    let alarms = ["a", "b"].map { id in
      ApplyCalendarScan.Planned(AddPending(app: app, pending: Fixtures.pending(Fixtures.request(id, after: 60), added: t0), at: t0, limit: .max),
                                origin: .init(uid: "uid-" + id, recurrence: "", repeatIndex: 0))
    }
    _ = try store.commit(ApplyCalendarScan(source: "work", files: [.init(name: "a.ics", outcome: .item(alarms, acknowledged: []))],
                                           whole: false, plannedUntil: nil, at: t0))
    for id in ["a", "b"] {
      _ = try store.fire(ScheduleKey(due: fired, app: app, identifier: id), now: fired, missedGraceMillis: 2000)
    }
    return store
  }

  @Test func aDismissalAndASnoozeAreQueuedWithTheirCommitInOrder() throws {
    let store = try delivered()
    _ = try store.commit(Remove(from: .delivered, app: app, identifiers: ["b"], at: fired))
    _ = try store.commit(SnoozeDelivered(app: app, identifier: "a", duration: tenMinutes, at: fired))
    let queued = try store.db.queuedCalendarWriteBacks(source: "work", limit: 10)
    #expect(queued.map(\.identifier) == ["b", "a"])
    #expect(queued.map(\.snoozeUntil) == [nil, fired.adding(millis: 600_000)])
    #expect(try store.db.queuedCalendarWriteBacks(source: "work", limit: 1).map(\.identifier) == ["b"])
  }

  @Test func theCalendarsOwnWithdrawalQueuesNothing() throws {
    let store = try delivered()
    // Acknowledged on another device: the scan withdraws the notification itself.
    let outcome = try store.commit(ApplyCalendarScan(
      source: "work", files: [.init(name: "a.ics", outcome: .item([], acknowledged: ["a"]))], whole: false,
      plannedUntil: nil, from: t0, at: fired.adding(millis: 5000)))
    #expect(outcome.acknowledged == ["a"])
    #expect(try store.db.queuedCalendarWriteBacks(source: "work", limit: 10).isEmpty)
  }

  @Test func otherAppsAndUnregisteredCalendarsQueueNothing() throws {
    let store = try delivered()
    _ = try store.commit(AddPending(app: "org.example.tea", pending: Fixtures.pending(Fixtures.request("t", after: 1), added: t0), at: t0))
    _ = try store.commit(Remove(from: .pending, app: "org.example.tea", identifiers: ["t"], at: t0))
    _ = try store.commit(Remove(from: .delivered, app: CalendarSource.appID(for: "gone"), identifiers: ["x"], at: fired))
    #expect(try store.db.queuedCalendarWriteBacks(source: "gone", limit: 10).isEmpty)
    #expect(try store.db.queuedCalendarWriteBacks(source: "work", limit: 10).isEmpty)
  }

  @Test func aRunsEntriesLeaveWithItsRecordAndARemovedCalendarsAllLeave() throws {
    let store = try delivered()
    _ = try store.commit(Remove(from: .delivered, app: app, identifiers: ["a", "b"], at: fired))
    let queued = try store.db.queuedCalendarWriteBacks(source: "work", limit: 10)
    #expect(queued.count == 2)
    try store.commit(RecordCalendarWriteBack(source: "work", failures: [:], written: ["a.ics"], done: [queued[0].seq]))
    #expect(try store.db.queuedCalendarWriteBacks(source: "work", limit: 10) == [queued[1]])
    _ = try store.commit(RemoveCalendarSource(name: "work", at: fired))
    #expect(try store.db.queuedCalendarWriteBacks(source: "work", limit: 10).isEmpty)
  }
}
