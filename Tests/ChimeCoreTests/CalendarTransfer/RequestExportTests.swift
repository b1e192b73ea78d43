@testable import ChimeCore
import Testing

/// Pending requests as VEVENT values (`chime export --ics`), without libical.
@Suite struct RequestExportTests {
  let berlin = Zone.named("Europe/Berlin")!
  // 2099-06-01T07:00:00Z, 09:00 in Berlin.
  let next = Instant(unixMillis: 4_083_980_400_000)

  func pending(_ trigger: Trigger, fired: UInt64 = 0, title: String = "Tea") -> PendingRequest {
    var p = PendingRequest(request: NotificationRequest(identifier: "tea", content: NotificationContent(title: title, body: "Steeped"),
                                                        trigger: trigger), nextFire: next, added: Instant(unixMillis: 0))
    p.fireCount = fired
    return p
  }

  func export(_ p: PendingRequest) throws -> RequestExport.Exported {
    try RequestExport.export(p, app: "org.example.tea", zone: berlin).get()
  }

  @Test func aCalendarTriggerStartsAtItsNextFireInItsZone() throws {
    var c = try CalendarSpec.parse("hour=9", timeZone: "Europe/Berlin")
    c.timeZone = "Europe/Berlin"
    let e = try export(pending(.calendar(CalendarTrigger(components: c, repeats: true, end: RepeatEnd(count: 10))), fired: 3))
    #expect(e.event.start == CalendarTime(LocalDateTime(year: 2099, month: 6, day: 1, hour: 9)!, .zoned("Europe/Berlin")))
    // Three of ten fired: seven are left, the one at DTSTART the first.
    #expect(e.event.rule == "FREQ=DAILY;BYHOUR=9;COUNT=7")
    guard case .calendar(let restored)? = e.request.request.trigger else { Issue.record("not a calendar trigger"); return }
    #expect(restored.end?.count == 7)
    #expect(e.event.summary == "Tea" && e.event.description == "Steeped" && e.event.alarmDescription == "Steeped")
    #expect(e.event.uid == RequestExport.uid(app: "org.example.tea", identifier: "tea"))
    #expect(e.event.properties.contains(.init("X-CHIME-IDENTIFIER", "tea")))
  }

  @Test func aFloatingTriggerIsFloatingInTheGivenZone() throws {
    let c = try CalendarSpec.parse("hour=9", timeZone: nil)
    let e = try export(pending(.calendar(CalendarTrigger(components: c, repeats: true, end: RepeatEnd(until: next.adding(seconds: 86_400 * 3))))))
    #expect(e.event.start == CalendarTime(LocalDateTime(year: 2099, month: 6, day: 1, hour: 9)!, .floating))
    // A floating start takes a floating UNTIL (RFC 5545 section 3.3.10).
    #expect(e.event.rule == "FREQ=DAILY;BYHOUR=9;UNTIL=20990604T090000")
  }

  @Test func anIntervalRepeatsInRealTimeFromUTC() throws {
    let e = try export(pending(.timeInterval(TimeIntervalTrigger(seconds: 5400, repeats: true))))
    #expect(e.event.start.form == .utc)
    #expect(e.event.start.wall == LocalDateTime(year: 2099, month: 6, day: 1, hour: 7)!)
    #expect(e.event.rule == "FREQ=MINUTELY;INTERVAL=90")
    let once = try export(pending(.timeInterval(TimeIntervalTrigger(seconds: 600))))
    #expect(once.event.rule == nil)
  }

  @Test func aRuleKeepsItsOwnStartAndExclusions() throws {
    let r = try Recurrence(rule: "FREQ=WEEKLY;BYDAY=MO;COUNT=10", start: "2099-05-04T17:00", timeZone: "Europe/Berlin",
                           exclusions: ["2099-05-11T17:00"])
    let e = try export(pending(.recurrence(r), fired: 2))
    #expect(e.event.start == CalendarTime(LocalDateTime(year: 2099, month: 5, day: 4, hour: 17)!, .zoned("Europe/Berlin")))
    #expect(e.event.rule == "FREQ=WEEKLY;COUNT=10;BYDAY=MO")
    #expect(e.event.exceptionDates == [CalendarTime(LocalDateTime(year: 2099, month: 5, day: 11, hour: 17)!, .zoned("Europe/Berlin"))])
    #expect(e.request.request.trigger == .recurrence(r))
  }

  @Test func aStartTheRuleDoesNotMakeMovesToTheFirstOccurrence() throws {
    // 2099-05-04 is not the last working day: RFC 5545 readers would take it as an occurrence, Chime does not.
    let r = try Recurrence(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", start: "2099-05-04T17:00",
                           timeZone: "Europe/Berlin", exclusions: ["2099-05-29T17:00"])
    let e = try export(pending(.recurrence(r)))
    // The last working day of May 2099, excluded yet still the first of the three.
    #expect(e.event.start.wall == LocalDateTime(year: 2099, month: 5, day: 29, hour: 17)!)
    #expect(e.event.rule == "FREQ=MONTHLY;COUNT=3;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
    #expect(e.request.request.trigger == .recurrence(r), "the request keeps its own start")
  }

  @Test func snoozedNotificationsAndAttachmentsStayBehind() throws {
    var snoozed = pending(.timeInterval(TimeIntervalTrigger(seconds: 600)))
    snoozed.snoozeCount = 1
    #expect(throws: RuleGap.self) { try RequestExport.export(snoozed, app: "a", zone: berlin).get() }
    var attached = pending(.timeInterval(TimeIntervalTrigger(seconds: 600)))
    attached.request.content.attachments = [Attachment(identifier: "x", path: "/tmp/x.png")]
    let e = try export(attached)
    #expect(e.request.request.content.attachments.isEmpty)
    #expect(e.notes.contains { $0.contains("attachment") })
  }

  @Test func theSummaryFallsBackToWhatTheRequestShows() throws {
    let e = try export(pending(.timeInterval(TimeIntervalTrigger(seconds: 600)), title: ""))
    #expect(e.event.summary == "Steeped")
  }

  @Test func uidsAreStableAndPerApp() {
    #expect(RequestExport.uid(app: "a", identifier: "x") == RequestExport.uid(app: "a", identifier: "x"))
    #expect(RequestExport.uid(app: "a", identifier: "x") != RequestExport.uid(app: "b", identifier: "x"))
    #expect(RequestExport.uid(app: "a", identifier: "x").hasSuffix("@a"))
  }
}
