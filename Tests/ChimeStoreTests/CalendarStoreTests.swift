import ChimeCore
import ChimeTestSupport
import Foundation
import Testing
@testable import ChimeStore

/// Calendar sources in the store: the v13 migration over a v12 store, registering and removing
/// a calendar, and a scan applied twice adding nothing twice, withdrawing only what is still
/// pending (a fired or snoozed alarm stays), and a whole scan forgetting files that are gone.
@Suite struct CalendarStoreTests {
  let app = CalendarSource.appID(for: "work")

  func alarm(_ identifier: String, after seconds: Double) -> ApplyCalendarScan.Planned {
    ApplyCalendarScan.Planned(AddPending(app: app, pending: Fixtures.pending(Fixtures.request(identifier, after: seconds), added: t0), at: t0, limit: .max),
                              origin: .init(uid: identifier + "@example.com", recurrence: "", repeatIndex: 0))
  }

  func scan(_ files: [ApplyCalendarScan.File], whole: Bool = false) -> ApplyCalendarScan {
    ApplyCalendarScan(source: "work", files: files, whole: whole, plannedUntil: whole ? t0.adding(millis: 86_400_000) : nil, at: t0)
  }

  @Test func aV12StoreGainsTheCalendarTables() throws {
    let dir = TemporaryDirectory()
    let path = dir.file("state/chime.db")
    try FileManager.default.createDirectory(atPath: dir.file("state"), withIntermediateDirectories: true)
    let queue = try DatabaseQueue(path: path)
    try Schema.migrator.migrate(queue, upTo: "v12: quiet deliveries marked until summarized")
    queue.close()
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    try database.pool.read { db in
      for table in ["calendar_source", "calendar_file", "calendar_alarm"] {
        let exists = try db.tableExists(table)
        #expect(exists, "\(table)")
      }
    }
    #expect(try database.calendars().isEmpty)
  }

  @Test func aScanAddsEachAlarmOnceAndWithdrawsOnlyWhatIsStillPending() throws {
    let store = try StoreFixture()
    let source = CalendarSource(name: "work", path: "/cal", added: t0)
    try store.commit(AddCalendarSource(source: source, categories: []))
    #expect(throws: ChimeError.self) { try store.commit(AddCalendarSource(source: source, categories: [])) }

    let first = try store.commit(scan([.init(name: "a.ics", outcome: .item([alarm("x", after: 60), alarm("y", after: 120)])),
                                       .init(name: "bad.ics", outcome: .failed("not iCalendar"))], whole: true))
    #expect(first.added.map(\.identifier) == ["x", "y"])
    // The same findings again change nothing.
    #expect(try store.commit(scan([.init(name: "a.ics", outcome: .item([alarm("x", after: 60), alarm("y", after: 120)]))])).added.isEmpty)
    let listed = try #require(try store.db.calendars().first)
    #expect(listed.source.itemCount == 1 && listed.source.alarmCount == 2)
    #expect(listed.source.errors == [CalendarSource.FileError(file: "bad.ics", message: "not iCalendar")])
    #expect(listed.plannedUntil == t0.adding(millis: 86_400_000))

    // x fires; a rescan that no longer plans it leaves its delivery alone and does not add it back.
    _ = try store.fire(ScheduleKey(due: t0.adding(millis: 60_000), app: app, identifier: "x"), now: t0.adding(millis: 60_000), missedGraceMillis: 2000)
    let moved = try store.commit(scan([.init(name: "a.ics", outcome: .item([alarm("y2", after: 180)]))]))
    #expect(moved.added.map(\.identifier) == ["y2"] && moved.removed == 1)
    #expect(try store.allPending(app).map(\.request.identifier) == ["y2"])
    #expect(try store.allDelivered(app).map(\.request.identifier) == ["x"])

    // A whole scan without a.ics: its alarm goes, and so does bad.ics's record.
    let gone = try store.commit(scan([], whole: true))
    #expect(gone.removed == 1)
    #expect(try store.allPending(app).isEmpty)
    #expect(try store.db.calendars().first?.source.errors.isEmpty == true)

    _ = try store.commit(scan([.init(name: "b.ics", outcome: .item([alarm("z", after: 60)]))]))
    #expect(try store.commit(RemoveCalendarSource(name: "work", at: t0)).removed == ["z"])
    #expect(try store.db.calendars().isEmpty)
    // A scan that ends after its calendar was removed brings nothing back.
    #expect(throws: ChimeError.self) { try store.commit(scan([.init(name: "b.ics", outcome: .item([alarm("z", after: 60)]))])) }
    #expect(try store.allPending(app).isEmpty)
  }

  /// An alarm that fell due while chimed was stopped is still pending when the start-up scan
  /// (whose window begins now) no longer plans it: it stays for the scheduler's missed-fire rule.
  @Test func anAlarmAlreadyDueIsLeftToTheScheduler() throws {
    let store = try StoreFixture()
    try store.commit(AddCalendarSource(source: CalendarSource(name: "work", path: "/cal", added: t0), categories: []))
    _ = try store.commit(scan([.init(name: "a.ics", outcome: .item([alarm("soon", after: 60), alarm("later", after: 7200)]))], whole: true))
    let restart = ApplyCalendarScan(source: "work", files: [.init(name: "a.ics", outcome: .item([]))], whole: true,
                                    plannedUntil: t0.adding(millis: 2 * 86_400_000), at: t0.adding(millis: 600_000))
    #expect(try store.commit(restart).removed == 1)
    #expect(try store.allPending(app).map(\.request.identifier) == ["soon"])
  }
}
