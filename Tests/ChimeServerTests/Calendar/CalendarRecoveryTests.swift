@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// A calendar's directory that goes away and comes back (issue 41): the failed whole scan is
/// shown by `list` and tried again, pending alarms are not lost to a directory that is merely
/// missing, and a directory recreated at the path is watched in place of the old one.
@Suite(.testTimeLimit) struct CalendarRecoveryTests {
  func later(_ d: InProcessDaemon, hours: Int64) -> Instant { Instant(unixMillis: d.clock.now().unixMillis + hours * 3_600_000) }

  /// Retries a few milliseconds apart, so the test waits for them and not for seconds.
  func quickRetries(_ d: InProcessDaemon) {
    d.daemon.onLoop { parts in
      parts.stack?.service.calendars.configuration.retryMinMillis = 10
      parts.stack?.service.calendars.configuration.retryMaxMillis = 40
    }
  }

  func watches(_ d: InProcessDaemon) -> Int? { d.daemon.openHandles()?.filter { $0.hasPrefix("fs_event") }.count }

  @Test func aVdirDeletedAndRecreatedIsReadAgainAndWatchedInPlaceOfTheOld() async throws {
    let d = try InProcessDaemon()
    quickRetries(d)
    let dir = d.directory.file("calendar")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try writeItem(calendarItem(uid: "a", summary: "A", start: later(d, hours: 2)), "a.ics", in: dir)
    _ = try await d.addCalendar("work", path: dir)
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["A"])

    // Deleted with its items (as `rm -r` or vdirsyncer's collection deletion): the item's alarm
    // goes, and the calendar says it cannot be read while it is missing.
    try FileManager.default.removeItem(atPath: dir)
    try await eventually {
      let listed = try await d.listCalendars().first
      return listed?.errors.first?.file == "" && listed?.errors.first?.message.contains("does not exist") == true
    }
    try await eventually { try await d.calendarPending("work").isEmpty }

    // Made again, then filled: a retry reads it, and the new directory is watched.
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try writeItem(calendarItem(uid: "b", summary: "B", start: later(d, hours: 3)), "b.ics", in: dir)
    try await eventually { try await d.calendarPending("work").map(\.request.content.title) == ["B"] }
    try await eventually { try await d.listCalendars().first?.errors.isEmpty == true }
    try writeItem(calendarItem(uid: "c", summary: "C", start: later(d, hours: 4)), "c.ics", in: dir)
    try await eventually { try await d.calendarPending("work").map(\.request.content.title) == ["B", "C"] }
    #expect(watches(d) == 1, "the old directory's watch is closed")
  }

  @Test func aVdirMissingAtStartKeepsItsAlarmsUntilItIsBack() async throws {
    let d = try InProcessDaemon()
    let dir = d.directory.file("calendar")
    let away = d.directory.file("unmounted")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try writeItem(calendarItem(uid: "a", summary: "A", start: later(d, hours: 2)), "a.ics", in: dir)
    _ = try await d.addCalendar("work", path: dir)
    let before = try await d.calendarPending("work").map(\.request.identifier)
    #expect(before.count == 1)

    // As an unmounted share: the directory is not there when chimed starts.
    try FileManager.default.moveItem(atPath: dir, toPath: away)
    try d.restart()
    quickRetries(d)
    try await eventually { try await d.listCalendars().first?.errors.first?.file == "" }
    #expect(try await d.calendarPending("work").map(\.request.identifier) == before, "a missing directory withdraws nothing")

    // Mounted again: read, watched, and what changes in it is seen.
    try FileManager.default.moveItem(atPath: away, toPath: dir)
    try await eventually { try await d.listCalendars().first?.errors.isEmpty == true }
    try writeItem(calendarItem(uid: "b", summary: "B", start: later(d, hours: 3)), "b.ics", in: dir)
    try await eventually { try await d.calendarPending("work").map(\.request.content.title) == ["A", "B"] }
    #expect(watches(d) == 1)
  }
}
