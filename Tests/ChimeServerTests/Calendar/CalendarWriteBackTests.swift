@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeStore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// What the user does with a calendar alarm, written back into its item (RFC 9074) by the whole
/// daemon with a manual clock and the real chime-calendar helper: a dismissal by any way
/// (removed, answered) sets ACKNOWLEDGED and changes nothing else in the file; a snooze adds a
/// snooze alarm that then fires once; an alarm acknowledged on another device leaves this one;
/// a file changed underneath is edited as it is now; a write that fails is listed and loses
/// nothing.
@Suite(.testTimeLimit) struct CalendarWriteBackTests {
  let hour: Int64 = 3_600_000

  func vdir(_ d: InProcessDaemon) throws -> String {
    let path = d.directory.file("calendar")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  func later(_ d: InProcessDaemon, hours: Int64) -> Instant { Instant(unixMillis: d.clock.now().unixMillis + hours * hour) }

  /// Adds the calendar, then moves the clock to the first alarm (10 minutes before `start`) and
  /// waits for it to be delivered; answers it.
  func firstAlarm(_ d: InProcessDaemon, dir: String, start: Instant) async throws -> DeliveredNotification {
    if try await d.listCalendars().isEmpty { _ = try await d.addCalendar("work", path: dir) }
    d.advance(seconds: Double(start.unixMillis - 600_000 - d.clock.now().unixMillis) / 1000)
    try await eventually { try await d.calendarDelivered("work").count == 1 }
    return try #require(try await d.calendarDelivered("work").first)
  }

  @Test func removingADeliveredAlarmWritesAcknowledgedAndChangesNothingElse() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2)
    // Bare LF line ends, a folded line and an unknown property: all kept as they are.
    let text = calendarItem(uid: "standup", summary: "Standup", start: start).replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "SUMMARY:Standup\n", with: "SUMMARY:Standup\nX-EXTRA;X-P=\"a:b\":kept as it\n  is, folded\n")
    try writeItem(text, "standup.ics", in: dir)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir + "/standup.ics")
    let delivered = try await firstAlarm(d, dir: dir, start: start)

    let app = try d.client(app: CalendarSource.appID(for: "work"), over: .inProcess)
    #expect(try await app.removeDelivered([delivered.request.identifier]) == [delivered.request.identifier])
    let acknowledged = text.replacingOccurrences(of: "TRIGGER:-PT10M\nEND:VALARM", with: "TRIGGER:-PT10M\nACKNOWLEDGED:\(icsUTC(d.clock.now()))\nEND:VALARM")
    try await eventually { try itemText("standup.ics", in: dir) == acknowledged }
    let mode = try FileManager.default.attributesOfItem(atPath: dir + "/standup.ics")[.posixPermissions] as? Int
    #expect(mode == 0o640)
    // Its own change rescans the file: nothing comes back, nothing fires again.
    let listed = try await d.syncCalendars("work")
    #expect(listed.first?.errors == [])
    #expect(try await d.calendarPending("work").isEmpty)
    #expect(try await d.calendarDelivered("work").isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["standup.ics"])
  }

  @Test func aDismissalAcknowledgesThatOccurrenceAndASnoozeFiresOnceFromTheItem() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2)
    try writeItem(calendarItem(uid: "daily", summary: "Daily", start: start, rule: "FREQ=DAILY;COUNT=3"), "daily.ics", in: dir)
    let first = try await firstAlarm(d, dir: dir, start: start)
    let app = try d.client(app: CalendarSource.appID(for: "work"), over: .inProcess)

    // Dismissed from the desktop's Dismiss button (a response): the series' VALARM is
    // acknowledged up to now (RFC 9074), the next occurrences still come.
    try await app.respond(to: first.request.identifier, action: CalendarAlarmRequest.dismissAction)
    try await eventually { try itemText("daily.ics", in: dir).contains("ACKNOWLEDGED:\(icsUTC(d.clock.now()))\r\nEND:VALARM") }
    _ = try await d.syncCalendars("work")
    #expect(try await d.calendarPending("work").map(\.nextFire) == [Instant(unixMillis: start.unixMillis + 24 * hour - 600_000)])

    // The second occurrence snoozed for 5 minutes: a snooze alarm in the item takes the place
    // of chimed's own snooze, so it fires once, here and on every device.
    d.advance(seconds: 24 * 3600)
    try await eventually { try await d.calendarDelivered("work").count == 1 }
    let second = try #require(try await d.calendarDelivered("work").first)
    try await app.respondSnooze(to: second.request.identifier, seconds: 300)
    let until = Instant(unixMillis: d.clock.now().unixMillis + 300_000)
    try await eventually { try itemText("daily.ics", in: dir).contains("TRIGGER;VALUE=DATE-TIME:\(icsUTC(until))") }
    let item = try itemText("daily.ics", in: dir)
    #expect(item.contains("RELATED-TO;RELTYPE=SNOOZE:"))
    #expect(item.contains("ACKNOWLEDGED:\(icsUTC(d.clock.now()))"))
    try await eventually {
      let pending = try await d.calendarPending("work")
      return pending.map(\.nextFire) == [until, Instant(unixMillis: start.unixMillis + 48 * hour - 600_000)]
        && pending.allSatisfy { $0.snoozeCount == 0 && $0.request.identifier != second.request.identifier }
    }
    d.advance(seconds: 300)
    try await eventually { try await d.calendarDelivered("work").map(\.request.content.title) == ["Daily"] }
    #expect(try await d.calendarPending("work").count == 1)
  }

  @Test func anAlarmAcknowledgedOnAnotherDeviceLeavesTheDeliveredAndPendingLists() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2), other = later(d, hours: 5)
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: start), "standup.ics", in: dir)
    try writeItem(calendarItem(uid: "review", summary: "Review", start: other), "review.ics", in: dir)
    _ = try await firstAlarm(d, dir: dir, start: start)
    #expect(try await d.calendarPending("work").map(\.request.content.title) == ["Review"])

    // The phone dismissed the showing one (ACKNOWLEDGED), Thunderbird the coming one
    // (X-MOZ-LASTACK past its instant); vdirsyncer brings both.
    let phone = calendarItem(uid: "standup", summary: "Standup", start: start)
      .replacingOccurrences(of: "END:VALARM", with: "ACKNOWLEDGED:\(icsUTC(d.clock.now()))\r\nEND:VALARM")
    try writeItem(phone, "standup.ics", in: dir)
    let thunderbird = calendarItem(uid: "review", summary: "Review", start: other)
      .replacingOccurrences(of: "SUMMARY:Review", with: "SUMMARY:Review\r\nX-MOZ-LASTACK:\(icsUTC(other))")
    try writeItem(thunderbird, "review.ics", in: dir)
    try await eventually { try await d.calendarDelivered("work").isEmpty }
    try await eventually { try await d.calendarPending("work").isEmpty }
    // Withdrawn, not dismissed here: nothing is written back.
    _ = try await d.syncCalendars("work")
    #expect(try itemText("standup.ics", in: dir) == phone)
    #expect(try itemText("review.ics", in: dir) == thunderbird)
  }

  @Test func aFileChangedSinceItWasScannedIsEditedAsItIsNow() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2)
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: start), "standup.ics", in: dir)
    let delivered = try await firstAlarm(d, dir: dir, start: start)
    // Another program puts an alarm before it and a property of its own in, just now.
    let edited = calendarItem(uid: "standup", summary: "Standup", start: start)
      .replacingOccurrences(of: "BEGIN:VALARM", with: "X-OTHER:1\r\nBEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT1H\r\nEND:VALARM\r\nBEGIN:VALARM")
    try writeItem(edited, "standup.ics", in: dir)
    _ = try await d.client(app: CalendarSource.appID(for: "work"), over: .inProcess).removeDelivered([delivered.request.identifier])
    let expected = edited.replacingOccurrences(of: "TRIGGER:-PT10M\r\nEND:VALARM",
                                               with: "TRIGGER:-PT10M\r\nACKNOWLEDGED:\(icsUTC(d.clock.now()))\r\nEND:VALARM")
    try await eventually { try itemText("standup.ics", in: dir) == expected }
  }

  @Test func aWriteThatFailsIsListedAndASnoozeThenStaysChimeds() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2)
    try writeItem(calendarItem(uid: "standup", summary: "Standup", start: start), "standup.ics", in: dir)
    let delivered = try await firstAlarm(d, dir: dir, start: start)
    // The file is no longer an item it can edit (written over in place).
    try "not iCalendar any more\r\n".write(toFile: dir + "/standup.ics", atomically: false, encoding: .utf8)
    let app = try d.client(app: CalendarSource.appID(for: "work"), over: .inProcess)
    try await app.respondSnooze(to: delivered.request.identifier, seconds: 300)
    try await eventually {
      try await d.listCalendars().first?.errors.first?.message.contains("a dismissal or snooze was not written back: the item cannot be read") == true
    }
    #expect(try itemText("standup.ics", in: dir) == "not iCalendar any more\r\n")
    // The snooze is not lost: chimed's own brings it back.
    d.advance(seconds: 300)
    try await eventually { try await d.calendarDelivered("work").map(\.snoozeCount) == [1] }
  }

  /// A dismissal committed just before chimed was killed, its write-back not yet run: the
  /// store queued it with the commit, and the next start writes it.
  @Test func aDismissalCommittedBeforeAKillIsWrittenAtTheNextStart() async throws {
    let d = try InProcessDaemon()
    let dir = try vdir(d)
    let start = later(d, hours: 2)
    let text = calendarItem(uid: "standup", summary: "Standup", start: start)
    try writeItem(text, "standup.ics", in: dir)
    let delivered = try await firstAlarm(d, dir: dir, start: start)
    try d.restart(afterBeingDownFor: 0) {
      // What the daemon committed for the dismissal before it died: the transaction alone.
      let database = try ChimeDatabase(path: d.directory.file("data") + "/chime.db")
      defer { database.close() }
      _ = try database.commit(Remove(from: .delivered, app: CalendarSource.appID(for: "work"), identifiers: [delivered.request.identifier],
                                     at: d.clock.now())).get()
    }
    let acknowledged = text.replacingOccurrences(of: "TRIGGER:-PT10M\r\nEND:VALARM",
                                                 with: "TRIGGER:-PT10M\r\nACKNOWLEDGED:\(icsUTC(d.clock.now()))\r\nEND:VALARM")
    try await eventually { try itemText("standup.ics", in: dir) == acknowledged }
    #expect(try await d.calendarDelivered("work").isEmpty)
  }
}
