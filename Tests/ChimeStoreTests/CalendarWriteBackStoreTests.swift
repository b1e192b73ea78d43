import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// What the store keeps for writing dismissals back into calendar items (v14): which alarm of
/// which file each request is, kept while it is shown; an alarm acknowledged in its item
/// withdrawn wherever it is; a failed write listed with the file's errors until one succeeds.
@Suite struct CalendarWriteBackStoreTests {
  let app = CalendarSource.appID(for: "work")
  let tenMinutes = try! SnoozeDuration(seconds: 600)

  func alarm(_ identifier: String, after seconds: Double, recurrence: String = "") -> ApplyCalendarScan.Planned {
    ApplyCalendarScan.Planned(AddPending(app: app, pending: Fixtures.pending(Fixtures.request(identifier, after: seconds), added: t0), at: t0, limit: .max),
                              origin: .init(uid: "uid-" + identifier, recurrence: recurrence, repeatIndex: 0))
  }

  func scan(_ file: String, _ alarms: [ApplyCalendarScan.Planned], acknowledged: [String] = [], at: Instant) -> ApplyCalendarScan {
    ApplyCalendarScan(source: "work", files: [.init(name: file, outcome: .item(alarms, acknowledged: acknowledged))], whole: false,
                      plannedUntil: nil, at: at)
  }

  func registered() throws -> StoreFixture {
    let store = try StoreFixture()
    try store.commit(AddCalendarSource(source: CalendarSource(name: "work", path: "/cal", added: t0), categories: []))
    return store
  }

  @Test func aV13StoreGainsTheWriteBackColumnsAndKeepsItsRows() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("state/chime.db")
    try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(queue, upTo: "v13: calendar sources")
    try queue.write { db in
      try db.execute(sql: """
        INSERT INTO calendar_source (name, path, app, added, planned_until) VALUES ('work', '/cal', 'io.github.chime.calendar.work', 0, 0);
        INSERT INTO calendar_alarm (source, identifier, file, at) VALUES ('work', 'cal-1', 'a.ics', 5000);
        """)
    }
    queue.close()
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    let rows = try database.calendarAlarms(source: "work", identifiers: ["cal-1", "other"])
    #expect(rows == [StoredCalendarAlarm(identifier: "cal-1", file: "a.ics", at: Instant(unixMillis: 5000),
                                         origin: .init(uid: "", recurrence: "", repeatIndex: 0))])
  }

  @Test func theRowSaysWhichAlarmItIsAndOutlivesItsDeliveryByADay() throws {
    let store = try registered()
    _ = try store.commit(scan("a.ics", [alarm("x", after: 60, recurrence: "i1800000060000")], at: t0))
    #expect(try store.db.calendarAlarms(source: "work", identifiers: ["x"]).map(\.origin)
            == [.init(uid: "uid-x", recurrence: "i1800000060000", repeatIndex: 0)])
    let fired = t0.adding(millis: 60_000)
    _ = try store.fire(ScheduleKey(due: fired, app: app, identifier: "x"), now: fired, missedGraceMillis: 2000)
    #expect(try store.db.earliestHeldCalendarAlarm(source: "work", before: fired.adding(millis: 1)) == fired)
    // Dismissed, then a scan no longer plans it (its window starts later): the row stays a day.
    _ = try store.commit(Remove(from: .delivered, app: app, identifiers: ["x"], at: fired))
    #expect(try store.db.earliestHeldCalendarAlarm(source: "work", before: fired.adding(millis: 1)) == nil)
    _ = try store.commit(scan("a.ics", [], at: fired.adding(millis: 1000)))
    #expect(try store.db.calendarAlarms(source: "work", identifiers: ["x"]).count == 1)
    _ = try store.commit(scan("a.ics", [], at: fired.adding(millis: ApplyCalendarScan.rowKeepMillis + 1000)))
    #expect(try store.db.calendarAlarms(source: "work", identifiers: ["x"]).isEmpty)
  }

  @Test func anAcknowledgedAlarmIsWithdrawnWhetherPendingShowingOrSnoozed() throws {
    let store = try registered()
    _ = try store.commit(scan("a.ics", [alarm("shown", after: 60), alarm("snoozed", after: 60), alarm("pending", after: 3600)], at: t0))
    let fired = t0.adding(millis: 60_000)
    for id in ["shown", "snoozed"] {
      _ = try store.fire(ScheduleKey(due: fired, app: app, identifier: id), now: fired, missedGraceMillis: 2000)
    }
    _ = try store.commit(SnoozeDelivered(app: app, identifier: "snoozed", duration: tenMinutes, at: fired))
    // Another device acknowledged all three: a scan that reaches back to them finds so.
    let outcome = try store.commit(ApplyCalendarScan(
      source: "work", files: [.init(name: "a.ics", outcome: .item([], acknowledged: ["shown", "snoozed", "pending"]))], whole: false,
      plannedUntil: nil, from: t0, at: fired.adding(millis: 5000)))
    #expect(outcome.acknowledged == ["shown", "snoozed"])
    #expect(outcome.removed == 1)
    #expect(outcome.events.map(\.kind) == [.pendingRemoved, .deliveredRemoved])
    #expect(try store.allPending(app).isEmpty)
    #expect(try store.allDelivered(app).isEmpty)
  }

  @Test func anAlarmDueBeforeTheWindowIsNotAddedAgain() throws {
    let store = try registered()
    _ = try store.commit(scan("a.ics", [alarm("x", after: 60)], at: t0))
    let fired = t0.adding(millis: 60_000)
    _ = try store.fire(ScheduleKey(due: fired, app: app, identifier: "x"), now: fired, missedGraceMillis: 2000)
    _ = try store.commit(Remove(from: .delivered, app: app, identifiers: ["x"], at: fired))
    // A later scan whose window starts before it plans it again, as known, not to add.
    let known = ApplyCalendarScan.Planned(identifier: "x", at: fired, origin: .init(uid: "uid-x", recurrence: "", repeatIndex: 0))
    let outcome = try store.commit(ApplyCalendarScan(source: "work", files: [.init(name: "a.ics", outcome: .item([known]))], whole: false,
                                                     plannedUntil: nil, from: t0, at: fired.adding(millis: 1000)))
    #expect(outcome.added.isEmpty)
    #expect(try store.allPending(app).isEmpty)
  }

  @Test func aFailedWriteIsListedWithTheFilesErrorsUntilAWriteSucceeds() throws {
    let store = try registered()
    _ = try store.commit(ApplyCalendarScan(source: "work", files: [.init(name: "a.ics", outcome: .item([alarm("x", after: 60)])),
                                                                   .init(name: "bad.ics", outcome: .failed("not iCalendar"))],
                                           whole: true, plannedUntil: t0.adding(millis: 86_400_000), at: t0))
    try store.commit(RecordCalendarWriteBack(source: "work", failures: ["a.ics": "Permission denied", "bad.ics": "cannot be read"], written: []))
    var errors = try #require(try store.db.calendars().first).source.errors
    #expect(errors == [
      .init(file: "a.ics", message: "a dismissal or snooze was not written back: Permission denied"),
      .init(file: "bad.ics", message: "not iCalendar; a dismissal or snooze was not written back: cannot be read"),
    ])
    // A scan of the file leaves it; a later write into it clears it.
    _ = try store.commit(scan("a.ics", [alarm("x", after: 60)], at: t0))
    #expect(try store.db.calendars().first?.source.errors.count == 2)
    try store.commit(RecordCalendarWriteBack(source: "work", failures: [:], written: ["a.ics"]))
    errors = try #require(try store.db.calendars().first).source.errors
    #expect(errors.map(\.file) == ["bad.ics"])
    #expect(try store.db.calendars().first?.source.itemCount == 1)
  }
}
