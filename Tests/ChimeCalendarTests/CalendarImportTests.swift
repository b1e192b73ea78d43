import ChimeCalendar
import ChimeCore
import Testing

/// Files written by calendar apps (no X-CHIME-*) imported as requests: one per alarm, a rule
/// trigger where the series' rule gives the planner's instants, one-shots otherwise.
@Suite struct CalendarImportTests {
  typealias S = CalendarTestSupport
  let now = S.instant("2027-01-01T00:00:00Z")

  func outcome(_ body: String, tz: String = "Europe/Berlin") throws -> RequestImport.Outcome {
    let (item, extras, _) = try CalendarFileReader.read(S.item(body))
    let zones = CalendarZones(userZone: try #require(Zone.named(tz)))
    return RequestImport.plan(item, extras: extras.map { RequestImport.Extras(description: $0.description) }, now: now, zones: zones)
  }

  func event(_ uid: String, _ lines: String, alarm: String = "TRIGGER:-PT15M") -> String {
    "BEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260101T000000Z\n\(lines)\nBEGIN:VALARM\nACTION:DISPLAY\nDESCRIPTION:Reminder\n\(alarm)\nEND:VALARM\nEND:VEVENT"
  }

  @Test func aWeeklySeriesIsOneRuleMovedByTheAlarm() throws {
    let o = try outcome(event("w", "DTSTART;TZID=Europe/Berlin:20270104T100000\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301T090000Z\nEXDATE;TZID=Europe/Berlin:20270111T100000\nSUMMARY:Team"))
    let imported = try #require(o.imported.first)
    #expect(o.imported.count == 1 && o.skipped.isEmpty, "\(o)")
    #expect(imported.request.identifier == "ics:w")
    #expect(imported.request.content.title == "Team" && imported.request.content.body == "Reminder")
    guard case .recurrence(let r)? = imported.request.trigger else { Issue.record("not a rule: \(imported)"); return }
    #expect(r.start == LocalDateTime(year: 2027, month: 1, day: 4, hour: 9, minute: 45)!)
    #expect(r.timeZone == "Europe/Berlin")
    #expect(r.exclusions == [LocalDateTime(year: 2027, month: 1, day: 11, hour: 9, minute: 45)!])
    #expect(r.rule.text == "FREQ=WEEKLY;UNTIL=20270301T084500Z;BYDAY=MO")
    let fires = try TriggerPlanner.preview(.recurrence(r), after: now, count: 10, zone: .utc).map { String($0.instant.description.prefix(16)) }
    #expect(fires == ["2027-01-04T08:45", "2027-01-18T08:45", "2027-01-25T08:45", "2027-02-01T08:45", "2027-02-08T08:45",
                      "2027-02-15T08:45", "2027-02-22T08:45", "2027-03-01T08:45"])
  }

  @Test func aBirthdayFloatsTheDayBefore() throws {
    let o = try outcome(event("b", "DTSTART;VALUE=DATE:20270315\nRRULE:FREQ=YEARLY\nSUMMARY:Ada", alarm: "TRIGGER:-PT15H"))
    guard case .recurrence(let r)? = o.imported.first?.request.trigger else { Issue.record("not a rule: \(o)"); return }
    #expect(r.start == LocalDateTime(year: 2027, month: 3, day: 14, hour: 9)! && r.timeZone == nil)
  }

  @Test func overridesMakeOneShotsPerInstant() throws {
    let o = try outcome(event("o", "DTSTART:20270104T100000Z\nRRULE:FREQ=DAILY;COUNT=3\nSUMMARY:Daily") + "\n"
                        + event("o", "RECURRENCE-ID:20270105T100000Z\nDTSTART:20270105T120000Z\nSUMMARY:Moved"))
    #expect(o.imported.map(\.request.identifier) == ["ics:o#0@20270104T094500Z", "ics:o#0@20270106T094500Z", "ics:o#0@20270105T114500Z"],
            "\(o.imported.map(\.request.identifier))")
    #expect(o.imported.map(\.request.content.title) == ["Daily", "Daily", "Moved"])
  }

  @Test func aSingleEventIsOneRequestAtItsAlarm() throws {
    let o = try outcome(event("s", "DTSTART;TZID=America/New_York:20270601T090000\nSUMMARY:Dentist\nLOCATION:Main St", alarm: "TRIGGER:-PT1H\nREPEAT:1\nDURATION:PT30M"))
    #expect(o.imported.map(\.request.identifier) == ["ics:s#0", "ics:s#0.1"])
    #expect(o.imported.map(\.firstFire) == [S.instant("2027-06-01T12:00:00Z"), S.instant("2027-06-01T12:30:00Z")])
    // The alarm's DESCRIPTION is the body; were it only the summary, LOCATION would be.
    #expect(o.imported.first?.request.content.body == "Reminder")
  }

  @Test func whatCannotBeNotifiedIsSkippedWithItsReason() throws {
    let o = try outcome("""
      BEGIN:VEVENT\nUID:none\nDTSTART:20270601T090000Z\nSUMMARY:Plain\nEND:VEVENT
      BEGIN:VEVENT\nUID:mail\nDTSTART:20270601T090000Z\nBEGIN:VALARM\nACTION:EMAIL\nTRIGGER:-PT1H\nSUMMARY:x\nDESCRIPTION:x\nATTENDEE:mailto:a@example.com\nEND:VALARM\nEND:VEVENT
      """ + "\n" + event("past", "DTSTART:20260601T090000Z\nSUMMARY:Gone"))
    #expect(o.imported.isEmpty)
    #expect(o.skipped.map(\.reason) == ["no VALARM", "no DISPLAY or AUDIO alarm (EMAIL and PROCEDURE are not notified)",
                                        "no alarm falls between now and 366 days after its start"], "\(o.skipped)")
  }

  @Test func anAlarmAcrossAClockChangeKeepsItsRealTimeOffset() throws {
    // 03:30 in Berlin, alarm two hours before: 01:30 on most days, but on 2027-03-28 (02:00
    // springs to 03:00) two real hours before 03:30 CEST is 00:30 CET. A rule moved on the
    // wall clock would say 01:30 CET (00:30Z), so each alarm is its own one-shot.
    let o = try outcome(event("d", "DTSTART;TZID=Europe/Berlin:20270326T033000\nRRULE:FREQ=DAILY;COUNT=4\nSUMMARY:Early",
                              alarm: "TRIGGER:-PT2H"))
    #expect(o.imported.map(\.firstFire) == ["2027-03-26T00:30:00Z", "2027-03-27T00:30:00Z", "2027-03-27T23:30:00Z",
                                            "2027-03-28T23:30:00Z"].map(S.instant), "\(o.imported.map(\.note))")
  }

  @Test func anAcknowledgedAlarmIsNotFiredAgain() throws {
    // The first occurrence's alarm was dismissed (RFC 9074): the rest are one-shots.
    let o = try outcome(event("a", "DTSTART:20270104T100000Z\nRRULE:FREQ=DAILY;COUNT=3\nSUMMARY:Pill",
                              alarm: "TRIGGER:-PT15M\nACKNOWLEDGED:20270104T094600Z"))
    #expect(o.imported.map(\.firstFire) == [S.instant("2027-01-05T09:45:00Z"), S.instant("2027-01-06T09:45:00Z")], "\(o)")
  }

  @Test func componentsWithoutAUIDAreEachTheirOwn() throws {
    let o = try outcome(event("", "DTSTART:20270601T090000Z\nSUMMARY:One") + "\n" + event("", "DTSTART:20270602T090000Z\nSUMMARY:Two"))
    #expect(o.imported.map(\.request.identifier) == ["ics:no-uid-0", "ics:no-uid-1"])
    #expect(o.imported.map(\.request.content.title) == ["One", "Two"])
  }

  @Test func aBadFileIsRefusedWithAReason() {
    #expect(throws: CalendarReadError.self) { try CalendarFileReader.read(Array("not a calendar".utf8)) }
    #expect(throws: CalendarReadError.self) { try CalendarFileReader.read([0xFF, 0xFE, 0x00]) }
  }
}
