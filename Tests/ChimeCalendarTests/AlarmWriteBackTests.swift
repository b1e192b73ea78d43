import ChimeCalendar
import ChimeCore
import Testing

/// Dismissing and snoozing a calendar alarm written back into its item (RFC 9074): the edited
/// text changes only where it must, and libical reads it back with the alarm acknowledged or
/// snoozed.
@Suite struct AlarmWriteBackTests {
  typealias S = CalendarTestSupport

  static let event = """
    BEGIN:VEVENT
    UID:standup@example.com
    DTSTAMP:20990101T000000Z
    DTSTART:20991124T090000Z
    DTEND:20991124T093000Z
    SUMMARY:Stand-up with a summary long enough that a calendar program folds it ac
     ross two lines
    BEGIN:VALARM
    ACTION:DISPLAY
    DESCRIPTION:Stand-up
    TRIGGER:-PT10M
    END:VALARM
    END:VEVENT
    """

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func dismissingAddsAcknowledgedAndKeepsEveryOtherByte() throws {
    let before = S.item(Self.event)
    let after = try AlarmWriteBack.acknowledge(before, .init(uid: "standup@example.com", componentIndex: 0, alarmIndex: 0),
                                               at: S.instant("2099-11-24T08:51:00Z"))
    let expected = Self.text(before).replacingOccurrences("TRIGGER:-PT10M\r\nEND:VALARM",
                                                         with: "TRIGGER:-PT10M\r\nACKNOWLEDGED:20991124T085100Z\r\nEND:VALARM")
    #expect(Self.text(after) == expected)
    // libical reads it back acknowledged: the alarm is no longer planned.
    #expect(try S.alarms(Self.event, after: "2099-11-24T00:00:00Z", until: "2099-11-25T00:00:00Z") == ["2099-11-24T08:50:00Z - DISPLAY"])
    let (item, _) = try CalendarItemReader.read(after)
    let plan = CalendarAlarmPlanner.plan(item, after: S.instant("2099-11-24T00:00:00Z"), until: S.instant("2099-11-25T00:00:00Z"),
                                         zones: CalendarZones(userZone: .utc))
    #expect(plan.alarms.isEmpty)
  }

  @Test func aSecondDismissalReplacesTheFirstAndLineEndsStayAsTheFileHasThem() throws {
    let lf = Array(Self.text(S.item(Self.event)).replacingOccurrences("\r\n", with: "\n").utf8)
    let target = AlarmWriteBack.Target(uid: "standup@example.com", componentIndex: 0, alarmIndex: 0)
    let once = try AlarmWriteBack.acknowledge(lf, target, at: S.instant("2099-11-24T08:51:00Z"))
    let twice = try AlarmWriteBack.acknowledge(once, target, at: S.instant("2099-11-24T08:52:30Z"))
    #expect(!Self.text(twice).contains("\r"))
    #expect(Self.text(twice).components("ACKNOWLEDGED").count == 2)
    #expect(Self.text(twice).contains("ACKNOWLEDGED:20991124T085230Z\nEND:VALARM"))
  }

  @Test func theTargetIsTheNthAlarmOfTheNthEventOrToDo() throws {
    let body = """
      BEGIN:VTIMEZONE
      TZID:Custom
      BEGIN:STANDARD
      DTSTART:19700101T000000
      TZOFFSETFROM:+0100
      TZOFFSETTO:+0100
      END:STANDARD
      END:VTIMEZONE
      BEGIN:VEVENT
      UID:series
      DTSTART:20991124T090000Z
      RRULE:FREQ=DAILY
      BEGIN:VALARM
      ACTION:DISPLAY
      DESCRIPTION:first
      TRIGGER:-PT10M
      END:VALARM
      END:VEVENT
      BEGIN:VEVENT
      UID:series
      RECURRENCE-ID:20991125T090000Z
      DTSTART:20991125T110000Z
      BEGIN:VALARM
      ACTION:DISPLAY
      DESCRIPTION:override one
      TRIGGER:-PT10M
      END:VALARM
      BEGIN:VALARM
      ACTION:AUDIO
      TRIGGER:-PT1M
      END:VALARM
      END:VEVENT
      """
    let after = try AlarmWriteBack.acknowledge(S.item(body), .init(uid: "series", componentIndex: 1, alarmIndex: 1),
                                               at: S.instant("2099-11-25T10:59:10Z"))
    #expect(Self.text(after).contains("ACTION:AUDIO\r\nTRIGGER:-PT1M\r\nACKNOWLEDGED:20991125T105910Z\r\nEND:VALARM"))
    #expect(Self.text(after).components("ACKNOWLEDGED").count == 2)
    #expect(throws: AlarmWriteBack.Failure.alarmNotFound(2)) {
      try AlarmWriteBack.acknowledge(S.item(body), .init(uid: "series", componentIndex: 1, alarmIndex: 2), at: S.instant("2099-11-25T10:59:10Z"))
    }
    #expect(throws: AlarmWriteBack.Failure.componentNotFound(2)) {
      try AlarmWriteBack.acknowledge(S.item(body), .init(uid: "series", componentIndex: 2, alarmIndex: 0), at: S.instant("2099-11-25T10:59:10Z"))
    }
    #expect(throws: AlarmWriteBack.Failure.uidMismatch(expected: "other", found: "series")) {
      try AlarmWriteBack.acknowledge(S.item(body), .init(uid: "other", componentIndex: 0, alarmIndex: 0), at: S.instant("2099-11-25T10:59:10Z"))
    }
  }

  @Test func snoozingAcknowledgesAndAddsARelatedSnoozeAlarmThatFiresAtItsEnd() throws {
    let after = try AlarmWriteBack.snooze(S.item(Self.event), .init(uid: "standup@example.com", componentIndex: 0, alarmIndex: 0),
                                          at: S.instant("2099-11-24T08:51:00Z"), until: S.instant("2099-11-24T09:01:00Z"),
                                          snoozeUID: "snooze-1", alarmUID: "alarm-1")
    let text = Self.text(after)
    #expect(text.contains("""
      TRIGGER:-PT10M\r
      ACKNOWLEDGED:20991124T085100Z\r
      UID:alarm-1\r
      END:VALARM\r
      BEGIN:VALARM\r
      UID:snooze-1\r
      RELATED-TO;RELTYPE=SNOOZE:alarm-1\r
      TRIGGER;VALUE=DATE-TIME:20991124T090100Z\r
      ACTION:DISPLAY\r
      DESCRIPTION:Stand-up\r
      END:VALARM\r
      END:VEVENT
      """))
    let (item, _) = try CalendarItemReader.read(after)
    let plan = CalendarAlarmPlanner.plan(item, after: S.instant("2099-11-24T00:00:00Z"), until: S.instant("2099-11-25T00:00:00Z"),
                                         zones: CalendarZones(userZone: .utc))
    #expect(plan.alarms.map(\.at) == [S.instant("2099-11-24T09:01:00Z")])
    // Snoozed again: the alarm's own UID is kept, the new snooze names it.
    let again = try AlarmWriteBack.snooze(after, .init(uid: "standup@example.com", componentIndex: 0, alarmIndex: 1),
                                          at: S.instant("2099-11-24T09:01:05Z"), until: S.instant("2099-11-24T09:06:00Z"),
                                          snoozeUID: "snooze-2", alarmUID: "unused")
    #expect(Self.text(again).contains("UID:snooze-1\r\nRELATED-TO;RELTYPE=SNOOZE:alarm-1"))
    #expect(Self.text(again).contains("UID:snooze-2\r\nRELATED-TO;RELTYPE=SNOOZE:snooze-1"))
    #expect(!Self.text(again).contains("unused"))
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
    components(target).joined(separator: replacement)
  }

  fileprivate func components(_ separator: String) -> [String] {
    var parts: [String] = []
    var rest = Substring(self)
    while let range = rest.range(of: separator) {
      parts.append(String(rest[..<range.lowerBound]))
      rest = rest[range.upperBound...]
    }
    parts.append(String(rest))
    return parts
  }
}

extension Substring {
  fileprivate func range(of needle: String) -> Range<Index>? {
    guard !needle.isEmpty else { return nil }
    var start = startIndex
    while start < endIndex {
      if self[start...].hasPrefix(needle) { return start..<(index(start, offsetBy: needle.count)) }
      start = index(after: start)
    }
    return nil
  }
}
