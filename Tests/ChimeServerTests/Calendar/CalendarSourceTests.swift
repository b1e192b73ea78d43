@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Calendar sources through the whole daemon with a manual clock: a vdir's alarms become pending
/// requests of the calendar's own app, edits picked up by inotify move or withdraw them, a
/// malformed file is an error of its own, removal withdraws, and a restart neither loses nor
/// duplicates an alarm. The items are read by the real chime-calendar helper.
@Suite(.testTimeLimit) struct CalendarSourceTests {
  let hour: Int64 = 3_600_000

  func vdir(_ d: InProcessDaemon) throws -> String {
    let path = d.directory.file("calendar")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func later(_ d: InProcessDaemon, hours: Int64) -> Instant { Instant(unixMillis: d.clock.now().unixMillis + hours * hour) }

  @Test func aVdirsAlarmsArePendingUnderTheCalendarsAppAndAMalformedFileIsAnErrorOfItsOwn() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: later(d, hours: 2), location: "Room 4"), "standup.ics", in: dir)
    try writeItem(calendarItem(uid: "review", summary: "Review", start: later(d, hours: 5)), "review.ics", in: dir)
    try writeItem("BEGIN:VCALENDAR\r\nthis is not an item\r\n", "broken.ics", in: dir)

    let source = try await d.addCalendar("work", path: dir)
    #expect(source.appID == "io.github.chime.calendar.work")
    #expect(source.itemCount == 2)
    #expect(source.alarmCount == 2)
    #expect(source.errors.map(\.file) == ["broken.ics"])
    #expect(source.lastScan == d.clock.now())

    let pending = try await d.calendarPending("work")
    #expect(pending.map(\.request.content.title) == ["Standup", "Review"])
    #expect(pending.map(\.nextFire) == [Instant(unixMillis: later(d, hours: 2).unixMillis - 600_000),
                                        Instant(unixMillis: later(d, hours: 5).unixMillis - 600_000)])
    let first = try #require(pending.first).request.content
    #expect(first.body.hasPrefix("in 10 minutes, "))
    #expect(first.body.hasSuffix("\nRoom 4"))
    #expect(first.threadIdentifier == "work")
    #expect(first.categoryIdentifier == CalendarAlarmRequest.categoryIdentifier)
    let categories = try await d.client(app: source.appID, over: .inProcess).categories()
    #expect(categories.first?.actions.map(\.identifier) == ["dismiss"])
    #expect(categories.first?.snoozeSeconds.isEmpty == false)

    // It fires like any request, under the calendar's app.
    d.advance(seconds: 2 * 3600 - 600)
    let client = try d.client(app: source.appID, over: .inProcess)
    try await eventually { try await client.allDelivered().map(\.request.content.title) == ["Standup"] }
  }

  @Test func editsMoveAndWithdrawPendingAlarms() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: later(d, hours: 2)), "standup.ics", in: dir)
    let daily = later(d, hours: 3)
    try writeItem(calendarItem(uid: "daily", summary: "Daily", start: daily, rule: "FREQ=DAILY;COUNT=5"), "daily.ics", in: dir)
    _ = try await d.addCalendar("work", path: dir)
    // The window is two days: the daily event's first two occurrences.
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["Standup", "Daily", "Daily"])

    // Moved an hour later.
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: later(d, hours: 4)), "standup.ics", in: dir)
    try await eventually {
      try await d.calendarPending("work").first(where: { $0.request.content.title == "Standup" })?.nextFire
        == Instant(unixMillis: later(d, hours: 4).unixMillis - 600_000)
    }
    #expect(try await d.calendarPending("work").count == 3)

    // A new exception: the first occurrence's alarm goes, the second stays.
    try writeItem(calendarItem(uid: "daily", summary: "Daily", start: daily, rule: "FREQ=DAILY;COUNT=5", exceptions: [daily]), "daily.ics", in: dir)
    try await eventually { try await d.calendarPending("work").filter { $0.request.content.title == "Daily" }.count == 1 }
    let second = Instant(unixMillis: daily.unixMillis + 24 * hour - 600_000)
    #expect(try await d.calendarPending("work").first(where: { $0.request.content.title == "Daily" })?.nextFire == second)

    // A deleted file's alarms are withdrawn.
    try FileManager.default.removeItem(atPath: dir + "/standup.ics")
    try await eventually { try await d.calendarPending("work").map(\.request.content.title) == ["Daily"] }
    #expect(try await d.listCalendars().first?.itemCount == 1)
  }

  @Test func laterAlarmsArePlannedAsTimePasses() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    try writeItem(calendarItem(uid: "trip", summary: "Trip", start: later(d, hours: 24 * 5)), "trip.ics", in: dir)
    _ = try await d.addCalendar("home", path: dir)
    #expect(try await d.calendarPending("home").isEmpty)
    d.advance(seconds: 4 * 86_400)
    try await eventually { try await d.calendarPending("home").map(\.request.content.title) == ["Trip"] }
  }

  /// The start-up read of the registered calendars can come back after an `add` made
  /// meanwhile (a loaded machine): the calendar is still followed once, with one watch, and
  /// the daemon still stops (a second watch was never closed, and its loop never ended).
  @Test func aCalendarReadBackAtStartUpAfterItWasAddedIsFollowedOnce() async throws {
    let d = try InProcessDaemon()
    let source = try await d.addCalendar("work", path: try vdir(d))
    func watches() -> Int? { d.daemon.openHandles()?.filter { $0.hasPrefix("fs_event") }.count }
    #expect(watches() == 1)
    // What the start-up read does with each calendar it finds, arriving late.
    d.daemon.onLoop { parts in parts.stack?.service.calendars.track(source, plannedUntil: Instant(unixMillis: 0)) }
    #expect(watches() == 1)
    #expect(try await d.listCalendars().map(\.name) == ["work"])
  }

  @Test func removeWithdrawsAndARestartKeepsSourcesWithoutDuplicates() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    try writeItem(calendarItem(uid: "a", summary: "A", start: later(d, hours: 2)), "a.ics", in: dir)
    try writeItem(calendarItem(uid: "b", summary: "B", start: later(d, hours: 3)), "b.ics", in: dir)
    _ = try await d.addCalendar("work", path: dir)
    let before = try await d.calendarPending("work")
    #expect(before.count == 2)

    try d.restart()
    // The restart's whole rescan finds the same alarms: nothing added twice, nothing lost.
    try await eventually { try await d.listCalendars().first?.lastScan != nil }
    try await eventually { try await d.calendarPending("work").map(\.request.identifier) == before.map(\.request.identifier) }
    #expect(try await d.listCalendars().map(\.name) == ["work"])
    // And it watches again.
    try writeItem(calendarItem(uid: "c", summary: "C", start: later(d, hours: 4)), "c.ics", in: dir)
    try await eventually { try await d.calendarPending("work").count == 3 }

    let removed = try await d.removeCalendar("work")
    #expect(removed == 3)
    #expect(try await d.calendarPending("work").isEmpty)
    #expect(try await d.listCalendars().isEmpty)
  }

  @Test func refusals() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    _ = try await d.addCalendar("work", path: dir)
    await expectReason("CALENDAR_EXISTS") { _ = try await d.addCalendar("work", path: dir) }
    await expectReason("INVALID_CALENDAR_PATH") { _ = try await d.addCalendar("other", path: dir + "/missing") }
    await expectReason("INVALID_CALENDAR_NAME") { _ = try await d.addCalendar("no.dots", path: dir) }
    await expectReason("CALENDAR_NOT_FOUND") {
      _ = try await d.removeCalendar("nothing")
    }
    await expectReason("CALENDAR_NOT_FOUND") { _ = try await d.syncCalendars("nothing") }
    #expect(try await d.syncCalendars().map(\.name) == ["work"])
    #expect(try await d.syncCalendars("work").first?.lastScan == d.clock.now())
  }

  func expectReason(_ reason: String, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async {
    do {
      try await body()
      Issue.record("expected \(reason)", sourceLocation: sourceLocation)
    } catch let error as ChimeError {
      #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(error)", sourceLocation: sourceLocation)
    }
  }
}
