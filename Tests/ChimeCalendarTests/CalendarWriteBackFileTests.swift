@testable import ChimeCalendar
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// Writing a dismissal or snooze into an item as the helper does: the planner says where each
/// alarm's VALARM is and which alarms are acknowledged; the alarm is found again in the file's
/// current text by what it is; the file is replaced atomically, keeping its mode, and only
/// while it is still the file that was read.
@Suite struct CalendarWriteBackFileTests {
  typealias S = CalendarTestSupport

  static let series = """
    BEGIN:VEVENT
    UID:series
    DTSTART:20991124T090000Z
    RRULE:FREQ=DAILY;COUNT=3
    SUMMARY:Daily
    BEGIN:VALARM
    ACTION:EMAIL
    TRIGGER:-PT1H
    END:VALARM
    BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:soon
    TRIGGER:-PT10M
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:series
    RECURRENCE-ID:20991125T090000Z
    DTSTART:20991125T110000Z
    SUMMARY:Moved
    BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:moved
    TRIGGER:-PT10M
    ACKNOWLEDGED:20991125T105000Z
    END:VALARM
    END:VEVENT
    """

  static let zones = CalendarZones(userZone: .utc)

  @Test func thePlannerSaysWhereEachAlarmIsAndWhichAreAcknowledged() throws {
    let plan = try S.plan(Self.series, after: "2099-11-24T00:00:00Z", until: "2099-11-27T00:00:00Z")
    #expect(plan.alarms.map { "\($0.at.description.prefix(16)) \($0.componentIndex).\($0.alarmIndex)" }
            == ["2099-11-24T08:50 0.1", "2099-11-26T08:50 0.1"])
    #expect(plan.acknowledged.map { "\($0.at.description.prefix(16)) \($0.componentIndex).\($0.alarmIndex)" } == ["2099-11-25T10:50 1.0"])
  }

  func request(_ at: String, recurrence: String, kind: AlarmWriteBack.Request.Kind = .dismiss) -> AlarmWriteBack.Request {
    AlarmWriteBack.Request(file: "series.ics", uid: "series", recurrenceID: .instant(S.instant(recurrence)), at: S.instant(at),
                           repeatIndex: 0, kind: kind)
  }

  func apply(_ request: AlarmWriteBack.Request, to text: [UInt8]) throws -> (text: [UInt8]?, why: String) {
    let item = try CalendarItemReader.read(text).item
    return try AlarmWriteBack.apply(request, to: text, item: item, zones: Self.zones, now: S.instant("2099-11-26T08:51:00Z"),
                                    snoozeUID: "snooze", alarmUID: "alarm")
  }

  @Test func theAlarmIsFoundByWhatItIsInTheTextAsItIsNow() throws {
    // A byte order mark and another alarm put before it since the scan: the edit finds its own.
    let text = [0xEF, 0xBB, 0xBF] + S.item(Self.series.replacingOccurrences(of: "BEGIN:VALARM\nACTION:EMAIL",
                                                                            with: "BEGIN:VALARM\nACTION:AUDIO\nTRIGGER:-PT2H\nEND:VALARM\nBEGIN:VALARM\nACTION:EMAIL"))
    let third = request("2099-11-26T08:50:00Z", recurrence: "2099-11-26T09:00:00Z")
    let edited = try #require(try apply(third, to: text).text)
    let written = String(decoding: edited, as: UTF8.self)
    #expect(edited.starts(with: [0xEF, 0xBB, 0xBF]))
    #expect(written.contains("DESCRIPTION:soon\r\nTRIGGER:-PT10M\r\nACKNOWLEDGED:20991126T085100Z\r\nEND:VALARM"))
    #expect(written.components(separatedBy: "ACKNOWLEDGED").count == 3)
    // The moved occurrence was acknowledged already; an alarm no longer there is not written.
    #expect(try apply(request("2099-11-25T10:50:00Z", recurrence: "2099-11-25T09:00:00Z"), to: text).why == "already acknowledged")
    #expect(try apply(request("2099-11-24T08:55:00Z", recurrence: "2099-11-24T09:00:00Z"), to: text).text == nil)
    // A snooze of an acknowledged alarm is still written (the user asked for it here).
    let snoozed = try apply(request("2099-11-25T10:50:00Z", recurrence: "2099-11-25T09:00:00Z", kind: .snooze(until: S.instant("2099-11-26T09:01:00Z"))), to: text)
    #expect(String(decoding: try #require(snoozed.text), as: UTF8.self).contains("RELATED-TO;RELTYPE=SNOOZE:alarm\r\nTRIGGER;VALUE=DATE-TIME:20991126T090100Z"))
  }

  @Test func theFileIsReplacedAtomicallyKeepingItsModeAndNothingElse() throws {
    let dir = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
    let path = dir.file("series.ics")
    let text = S.item(Self.series)
    try Data(text).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    let inode = try #require(FileSystem.status(path)).inode
    let outcomes = CalendarWriteBack.run([request("2099-11-24T08:50:00Z", recurrence: "2099-11-24T09:00:00Z"),
                                          request("2099-11-26T08:50:00Z", recurrence: "2099-11-26T09:00:00Z"),
                                          AlarmWriteBack.Request(file: "../x.ics", uid: "u", recurrenceID: nil, at: S.instant("2099-11-24T08:50:00Z"),
                                                                 repeatIndex: 0, kind: .dismiss)],
                                         calendar: dir.path, zones: Self.zones, now: S.instant("2099-11-26T08:51:00Z"), newUID: { "x" })
    // One read, edits in order: the first acknowledges the series' alarm up to now (RFC 9074),
    // which covers the second's occurrence too.
    #expect(outcomes.prefix(2) == [.written, .unchanged("already acknowledged")])
    #expect(outcomes.last == .failed("../x.ics is not an item of the calendar"))
    let status = try #require(FileSystem.status(path))
    #expect(status.permissions == 0o600 && status.inode != inode)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["series.ics"])
    #expect(String(decoding: try FileSystem.contents(path), as: UTF8.self)
            == String(decoding: text, as: UTF8.self).replacingOccurrences(of: "TRIGGER:-PT10M\r\nEND:VALARM",
                                                                         with: "TRIGGER:-PT10M\r\nACKNOWLEDGED:20991126T085100Z\r\nEND:VALARM"))
  }

  @Test func aFileChangedSinceItWasReadIsNotReplaced() throws {
    let dir = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
    let path = dir.file("a.ics")
    try "one\r\n".write(toFile: path, atomically: false, encoding: .utf8)
    let read = try #require(FileSystem.status(path))
    try "two, longer\r\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(try CalendarWriteBack.replace(path, with: Array("mine\r\n".utf8), ifStill: read) == false)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "two, longer\r\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.ics"])
    // A symbolic link is not followed out of the calendar: it is not written through.
    try FileManager.default.createSymbolicLink(atPath: dir.file("link.ics"), withDestinationPath: path)
    let outcome = CalendarWriteBack.run([request("2099-11-24T08:50:00Z", recurrence: "2099-11-24T09:00:00Z").with(file: "link.ics")],
                                        calendar: dir.path, zones: Self.zones, now: S.instant("2099-11-26T08:51:00Z"), newUID: { "x" })
    guard case .failed(let why)? = outcome.first else {
      Issue.record("\(outcome)")
      return
    }
    #expect(why.contains("symbolic link"))
  }
}

extension AlarmWriteBack.Request {
  fileprivate func with(file: String) -> AlarmWriteBack.Request {
    var copy = self
    copy.file = file
    return copy
  }
}
