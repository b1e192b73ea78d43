@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Calendar alarms that fell due while chimed was stopped, across a restart with a manual clock:
/// one less late than the calendar's grace (an hour) is delivered once, marked missed; older
/// ones are summed up in one notification per calendar; one acknowledged on another device or
/// deleted meanwhile never fires. Both when the restart is inside the window planned before
/// (the alarms are pending) and past it (they were never planned).
@Suite(.testTimeLimit) struct CalendarMissedTests {
  let minute: Int64 = 60_000
  let hour: Int64 = 3_600_000

  func vdir(_ d: InProcessDaemon) throws -> String {
    let path = d.directory.file("calendar")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// An item whose display alarm (10 minutes before its start) is at `alarm`.
  func item(_ uid: String, alarm: Instant) -> String {
    calendarItem(uid: uid, summary: uid.capitalized, start: Instant(unixMillis: alarm.unixMillis + 10 * minute))
  }

  @Test func insideThePlannedWindowTheRecentOneIsShownOnceAndOlderOnesSummedUp() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let t0 = d.clock.now()
    func at(_ millis: Int64) -> Instant { Instant(unixMillis: t0.unixMillis + millis) }
    let alarms = ["early": at(2 * hour), "later": at(3 * hour), "recent": at(24 * hour - 30 * minute),
                  "dismissed": at(24 * hour - 20 * minute), "deleted": at(24 * hour - 15 * minute), "coming": at(25 * hour)]
    for (uid, alarm) in alarms { try writeItem(item(uid, alarm: alarm), uid + ".ics", in: dir) }
    _ = try await d.addCalendar("work", path: dir)
    #expect(try await d.calendarPending("work").count == 6)

    try d.restart(afterBeingDownFor: 24 * 3600) {
      // Meanwhile the phone dismissed one alarm, and one event was deleted.
      let dismissed = item("dismissed", alarm: alarms["dismissed"]!)
        .replacingOccurrences(of: "END:VALARM", with: "ACKNOWLEDGED:\(icsUTC(at(24 * hour - 19 * minute)))\r\nEND:VALARM")
      try writeItem(dismissed, "dismissed.ics", in: dir)
      try FileManager.default.removeItem(atPath: dir + "/deleted.ics")
    }
    try await eventually { try await d.calendarDelivered("work").count == 2 }
    let delivered = try await d.calendarDelivered("work")
    let recent = try #require(delivered.first { $0.request.content.title == "Recent" })
    #expect(recent.missed && recent.due == alarms["recent"]!)
    let summary = try #require(delivered.first { $0.request.identifier == CalendarService.missedSummaryIdentifier })
    #expect(summary.request.content.title == "2 calendar alarms were missed")
    #expect(summary.request.content.body.hasPrefix("work: due more than 1 hour ago"))
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["Coming"])
  }

  @Test func pastThePlannedWindowAlarmsNeverPlannedFollowTheSameRule() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let t0 = d.clock.now()
    func at(_ millis: Int64) -> Instant { Instant(unixMillis: t0.unixMillis + millis) }
    // The window planned at the start is two days: only "planned" is pending when chimed stops.
    let alarms = ["planned": at(hour), "unplanned": at(49 * hour), "recent": at(72 * hour - 30 * minute), "coming": at(73 * hour)]
    for (uid, alarm) in alarms { try writeItem(item(uid, alarm: alarm), uid + ".ics", in: dir) }
    _ = try await d.addCalendar("work", path: dir)
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["Planned"])

    try d.restart(afterBeingDownFor: 72 * 3600)
    try await eventually { try await d.calendarDelivered("work").count == 2 }
    let delivered = try await d.calendarDelivered("work")
    let recent = try #require(delivered.first { $0.request.content.title == "Recent" })
    #expect(recent.missed && recent.due == alarms["recent"]!)
    // One skipped by the scheduler (pending), one by the start-up scan (never planned): one summary.
    #expect(delivered.first { $0.request.identifier == CalendarService.missedSummaryIdentifier }?.request.content.title
            == "2 calendar alarms were missed")
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["Coming"])

    // A calendar registered now has not missed its past alarms: its window starts now.
    let other = d.directory.file("other")
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    try writeItem(item("past", alarm: Instant(unixMillis: d.clock.now().unixMillis - 5 * minute)), "past.ics", in: other)
    #expect(try await d.addCalendar("other", path: other).alarmCount == 0)
    #expect(try await d.calendarPending("other").isEmpty)
  }
  /// Missed alarms in batches further apart than the summary's gathering (a clock jump each):
  /// a summary that replaces one still standing counts its alarms too; once the user removes
  /// it, the next counts only its own.
  @Test func aSummaryCountsTheOneItReplacesUntilTheUserRemovesIt() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let t0 = d.clock.now()
    func at(_ millis: Int64) -> Instant { Instant(unixMillis: t0.unixMillis + millis) }
    for (uid, alarm) in ["first": at(hour), "second": at(5 * hour), "third": at(9 * hour)] {
      try writeItem(item(uid, alarm: alarm), uid + ".ics", in: dir)
    }
    _ = try await d.addCalendar("work", path: dir)
    #expect(try await d.calendarPending("work").count == 3)
    func summary() async throws -> String? {
      try await d.calendarDelivered("work").first { $0.request.identifier == CalendarService.missedSummaryIdentifier }?
        .request.content.title
    }
    // Each jump leaves one more alarm later than the grace (an hour): skipped and summed up.
    d.advance(seconds: 3 * 3600)
    try await eventually { try await summary() == "1 calendar alarm was missed" }
    d.advance(seconds: 4 * 3600)
    try await eventually { try await summary() == "2 calendar alarms were missed" }
    let calendarApp = try d.client(app: CalendarSource.appID(for: "work"), over: .inProcess)
    #expect(try await calendarApp.removeDelivered([CalendarService.missedSummaryIdentifier]) == [CalendarService.missedSummaryIdentifier])
    d.advance(seconds: 4 * 3600)
    try await eventually { try await summary() == "1 calendar alarm was missed" }
    #expect(try await d.calendarPending("work").isEmpty)
  }
}
