import ChimeCalendar
import ChimeCore
import Testing

/// Alarms of items read through libical and planned by ChimeCore, checked against what RFC 5545
/// says they are.
@Suite struct CalendarAlarmPlannerTests {
  typealias S = CalendarTestSupport

  @Test func anAlarmBeforeAWallTimeInTheSpringForwardGap() throws {
    // Europe/Berlin springs forward on 2027-03-28 at 02:00: 02:30 reads as 03:30 +02:00
    // (01:30Z, RFC 5545 section 3.3.5); 15 minutes before is 01:15Z.
    let alarms = try S.alarms("""
      BEGIN:VEVENT
      UID:gap
      DTSTART;TZID=Europe/Berlin:20270328T023000
      DTEND;TZID=Europe/Berlin:20270328T033000
      SUMMARY:In the gap
      BEGIN:VALARM
      ACTION:DISPLAY
      DESCRIPTION:x
      TRIGGER:-PT15M
      END:VALARM
      END:VEVENT
      """, after: "2027-03-27T00:00:00Z", until: "2027-03-29T00:00:00Z")
    #expect(alarms == ["2027-03-28T01:15:00Z - DISPLAY"])
  }

  @Test func relatedEndCountsFromTheEnd() throws {
    let alarms = try S.alarms("""
      BEGIN:VEVENT
      UID:end
      DTSTART:20270105T090000Z
      DURATION:PT2H
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER;RELATED=END:-PT5M
      END:VALARM
      END:VEVENT
      BEGIN:VTODO
      UID:todo
      DUE:20270106T170000Z
      BEGIN:VALARM
      ACTION:AUDIO
      TRIGGER;RELATED=END:-PT1H
      END:VALARM
      END:VTODO
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-05T10:55:00Z - DISPLAY", "2027-01-06T16:00:00Z - AUDIO"])
  }

  @Test func eachRepeatIsItsOwnAlarm() throws {
    let alarms = try S.alarms("""
      BEGIN:VEVENT
      UID:rep
      DTSTART:20270105T090000Z
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT30M
      REPEAT:2
      DURATION:PT10M
      END:VALARM
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-05T08:30:00Z - DISPLAY", "2027-01-05T08:40:00Z - DISPLAY", "2027-01-05T08:50:00Z - DISPLAY"])
  }

  static let weekly = """
    BEGIN:VEVENT
    UID:weekly
    DTSTART;TZID=Europe/Berlin:20270104T100000
    DTEND;TZID=Europe/Berlin:20270104T110000
    RRULE:FREQ=WEEKLY;COUNT=4
    SUMMARY:Standup
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-PT10M
    END:VALARM
    END:VEVENT
    """

  @Test func exdateRemovesAnOccurrence() throws {
    let body = Self.weekly.replacingOccurrences("RRULE:FREQ=WEEKLY;COUNT=4", "RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE;TZID=Europe/Berlin:20270111T100000")
    let alarms = try S.alarms(body, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-04T08:50:00Z 2027-01-04T09:00:00Z DISPLAY", "2027-01-18T08:50:00Z 2027-01-18T09:00:00Z DISPLAY",
                       "2027-01-25T08:50:00Z 2027-01-25T09:00:00Z DISPLAY"])
  }

  @Test func anOverriddenOccurrenceMovesItsAlarm() throws {
    let alarms = try S.alarms(Self.weekly + """

      BEGIN:VEVENT
      UID:weekly
      RECURRENCE-ID;TZID=Europe/Berlin:20270111T100000
      DTSTART;TZID=Europe/Berlin:20270112T140000
      DTEND;TZID=Europe/Berlin:20270112T150000
      SUMMARY:Standup (moved)
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT1H
      END:VALARM
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-04T08:50:00Z 2027-01-04T09:00:00Z DISPLAY", "2027-01-12T12:00:00Z 2027-01-11T09:00:00Z DISPLAY",
                       "2027-01-18T08:50:00Z 2027-01-18T09:00:00Z DISPLAY", "2027-01-25T08:50:00Z 2027-01-25T09:00:00Z DISPLAY"])
  }

  @Test func thisAndFutureMovesEveryLaterOccurrence() throws {
    // From the third occurrence on, the meeting is two hours later with a 5-minute alarm.
    let alarms = try S.alarms(Self.weekly + """

      BEGIN:VEVENT
      UID:weekly
      RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20270118T100000
      DTSTART;TZID=Europe/Berlin:20270118T120000
      DTEND;TZID=Europe/Berlin:20270118T130000
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT5M
      END:VALARM
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-04T08:50:00Z 2027-01-04T09:00:00Z DISPLAY", "2027-01-11T08:50:00Z 2027-01-11T09:00:00Z DISPLAY",
                       "2027-01-18T10:55:00Z 2027-01-18T09:00:00Z DISPLAY", "2027-01-25T10:55:00Z 2027-01-25T09:00:00Z DISPLAY"])
  }

  @Test func cancelledOccurrencesAndSeriesHaveNoAlarms() throws {
    let one = try S.alarms(Self.weekly + """

      BEGIN:VEVENT
      UID:weekly
      RECURRENCE-ID;TZID=Europe/Berlin:20270111T100000
      DTSTART;TZID=Europe/Berlin:20270111T100000
      STATUS:CANCELLED
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-01-15T00:00:00Z")
    #expect(one == ["2027-01-04T08:50:00Z 2027-01-04T09:00:00Z DISPLAY"])
    let all = try S.alarms(Self.weekly.replacingOccurrences("SUMMARY:Standup", "SUMMARY:Standup\nSTATUS:CANCELLED"),
                           after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(all.isEmpty)
  }

  @Test func allDayDatesAreReadInTheUsersZone() throws {
    let body = """
      BEGIN:VEVENT
      UID:birthday
      DTSTART;VALUE=DATE:20270310
      DTEND;VALUE=DATE:20270311
      RRULE:FREQ=YEARLY
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT15M
      END:VALARM
      END:VEVENT
      """
    // 15 minutes before midnight starting 2027-03-10, in each zone.
    #expect(try S.alarms(body, after: "2027-01-01T00:00:00Z", until: "2028-01-01T00:00:00Z", tz: "Asia/Tokyo")
      == ["2027-03-09T14:45:00Z 2027-03-10 DISPLAY"])
    #expect(try S.alarms(body, after: "2027-01-01T00:00:00Z", until: "2028-01-01T00:00:00Z", tz: "America/New_York")
      == ["2027-03-10T04:45:00Z 2027-03-10 DISPLAY"])
  }

  @Test func aWindowsZoneNameIsReadThroughCLDR() throws {
    let body = """
      BEGIN:VTIMEZONE
      TZID:W. Europe Standard Time
      BEGIN:STANDARD
      DTSTART:16010101T030000
      TZOFFSETFROM:+0200
      TZOFFSETTO:+0100
      RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
      END:STANDARD
      BEGIN:DAYLIGHT
      DTSTART:16010101T020000
      TZOFFSETFROM:+0100
      TZOFFSETTO:+0200
      RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
      END:DAYLIGHT
      END:VTIMEZONE
      BEGIN:VEVENT
      UID:outlook
      DTSTART;TZID=W. Europe Standard Time:20270705T090000
      DTEND;TZID=W. Europe Standard Time:20270705T100000
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT15M
      END:VALARM
      END:VEVENT
      """
    let windows = CalendarCollection.windowsZones()
    #expect(windows["W. Europe Standard Time"] == "Europe/Berlin")
    #expect(try S.alarms(body, after: "2027-07-01T00:00:00Z", until: "2027-08-01T00:00:00Z", windows: windows)
      == ["2027-07-05T06:45:00Z - DISPLAY"])
    // Without the table, the VTIMEZONE's own rules give the same instant.
    #expect(try S.alarms(body, after: "2027-07-01T00:00:00Z", until: "2027-08-01T00:00:00Z")
      == ["2027-07-05T06:45:00Z - DISPLAY"])
  }

  @Test func acknowledgedAlarmsAreLeftOut() throws {
    let alarms = try S.alarms("""
      BEGIN:VEVENT
      UID:ack
      DTSTART:20270105T090000Z
      RRULE:FREQ=DAILY;COUNT=3
      X-MOZ-LASTACK:20270105T085000Z
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT10M
      END:VALARM
      BEGIN:VALARM
      ACTION:AUDIO
      TRIGGER:-PT5M
      ACKNOWLEDGED:20270106T085500Z
      END:VALARM
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(alarms == ["2027-01-06T08:50:00Z 2027-01-06T09:00:00Z DISPLAY", "2027-01-07T08:50:00Z 2027-01-07T09:00:00Z DISPLAY",
                       "2027-01-07T08:55:00Z 2027-01-07T09:00:00Z AUDIO"])
  }

  @Test func aThunderbirdSnoozeComesBackOnce() throws {
    // Dismissed through 08:52 (both alarms), snoozed to 08:57: one alarm then.
    let body = """
      BEGIN:VEVENT
      UID:snooze
      DTSTART:20270105T090000Z
      X-MOZ-LASTACK:20270105T085200Z
      X-MOZ-SNOOZE-TIME:20270105T085700Z
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT15M
      END:VALARM
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT45M
      END:VALARM
      END:VEVENT
      BEGIN:VEVENT
      UID:series
      DTSTART:20270105T090000Z
      RRULE:FREQ=DAILY;COUNT=2
      X-MOZ-LASTACK:20270106T085000Z
      X-MOZ-SNOOZE-TIME-1799226000000000:20270106T085500Z
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT10M
      END:VALARM
      END:VEVENT
      """
    #expect(try S.alarms(body, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
      == ["2027-01-05T08:57:00Z - DISPLAY", "2027-01-06T08:55:00Z 2027-01-06T09:00:00Z DISPLAY"])
    // Dismissed after the snooze time: nothing comes back.
    #expect(try S.alarms(body.replacingOccurrences("X-MOZ-LASTACK:20270105T085200Z", "X-MOZ-LASTACK:20270105T085800Z"),
                         after: "2027-01-01T00:00:00Z", until: "2027-01-06T00:00:00Z").isEmpty)
  }

  @Test func emailAndProcedureAreCountedNotPlanned() throws {
    let plan = try S.plan("""
      BEGIN:VEVENT
      UID:mail
      DTSTART:20270105T090000Z
      BEGIN:VALARM
      ACTION:EMAIL
      TRIGGER:-PT10M
      SUMMARY:s
      DESCRIPTION:d
      ATTENDEE:mailto:a@example.com
      END:VALARM
      BEGIN:VALARM
      ACTION:PROCEDURE
      TRIGGER:-PT10M
      ATTACH:file:///bin/true
      END:VALARM
      BEGIN:VALARM
      ACTION:AUDIO
      TRIGGER;VALUE=DATE-TIME:20270105T080000Z
      ATTACH:file:///usr/share/sounds/freedesktop/stereo/bell.oga
      END:VALARM
      END:VEVENT
      """, after: "2027-01-01T00:00:00Z", until: "2027-02-01T00:00:00Z")
    #expect(plan.ignored == ["EMAIL": 1, "PROCEDURE": 1])
    #expect(plan.alarms.map(\.action) == [.audio(soundFile: "/usr/share/sounds/freedesktop/stereo/bell.oga")])
    #expect(plan.alarms.map(\.at) == [S.instant("2027-01-05T08:00:00Z")])
  }

  @Test func aMalformedItemIsAnErrorNotACrash() {
    #expect(throws: CalendarReadError.self) { try CalendarItemReader.read(Array("not a calendar".utf8)) }
    #expect(throws: CalendarReadError.self) { try CalendarItemReader.read([0x42, 0, 0x43]) }
  }
}

extension String {
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
