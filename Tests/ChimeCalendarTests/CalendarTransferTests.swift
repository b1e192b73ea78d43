import ChimeCalendar
import ChimeCore
import ChimeRecords
import Testing

/// `chime export --ics` and `chime import` in process: requests written by libical, read back
/// by libical, and imported into another app with the same next fires and content.
@Suite struct CalendarTransferTests {
  let berlin = Zone.named("Europe/Berlin")!
  /// 2099-06-01T00:00:00Z: the export's and the import's "now".
  let now = Instant(unixMillis: 4_083_955_200_000)

  func request(_ id: String, _ trigger: Trigger) -> NotificationRequest {
    var content = NotificationContent(title: "Title, \(id); with \\ and\nlines", subtitle: "Sub", body: "Body of \(id)")
    content.categoryIdentifier = "cat"
    content.threadIdentifier = "thread"
    content.sound = .named("bell.oga")
    content.userInfoJSON = #"{"room":4}"#
    content.interruptionLevel = .timeSensitive
    return NotificationRequest(identifier: id, content: content, trigger: trigger, missedFire: MissedFirePolicy(action: .skip))
  }

  /// One request of every trigger kind, as chimed holds them at `now`.
  func requests() throws -> [PendingRequest] {
    var daily = try CalendarSpec.parse("hour=9,minute=30", timeZone: "Europe/Berlin")
    daily.timeZone = "Europe/Berlin"
    let weekly = try CalendarSpec.parse("weekday=mon+thu,hour=7", timeZone: "America/New_York")
    let floating = try CalendarSpec.parse("hour=18", timeZone: nil)
    let rule = try Recurrence(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", start: "2099-01-01T17:00", timeZone: "Europe/Berlin",
                              exclusions: ["2099-06-30T17:00"])
    let triggers: [(String, Trigger)] = [
      ("interval", .timeInterval(TimeIntervalTrigger(seconds: 3600, repeats: true, end: RepeatEnd(count: 5)))),
      ("once", .timeInterval(TimeIntervalTrigger(seconds: 90))),
      ("daily", .calendar(CalendarTrigger(components: daily, repeats: true))),
      ("weekly", .calendar(CalendarTrigger(components: weekly, repeats: true, end: RepeatEnd(count: 20)))),
      ("floating", .calendar(CalendarTrigger(components: floating, repeats: true))),
      ("at", .calendar(CalendarTrigger(components: CalendarSpec.instant(unixSeconds: now.unixMillis / 1000 + 7200)))),
      ("rule", .recurrence(rule)),
    ]
    return try triggers.map { id, trigger in
      PendingRequest(request: request(id, trigger), nextFire: try TriggerPlanner.firstFire(of: trigger, added: now, zone: berlin), added: now)
    }
  }

  func export(_ pending: [PendingRequest]) throws -> String {
    var events: [ExportedEvent] = []
    for p in pending {
      var e = try RequestExport.export(p, app: "org.example.from", zone: berlin).get()
      e.event.properties.append(.init(RequestExport.requestProperty, Base64Text.encode(RecordCodec().encode(e.request))))
      events.append(e.event)
    }
    let (text, notes) = CalendarFileReader.write(events, stamp: now)
    #expect(notes.isEmpty, "\(notes)")
    return text
  }

  func importing(_ text: String, at: Instant? = nil) throws -> RequestImport.Outcome {
    let (item, extras, _) = try CalendarFileReader.read(Array(text.utf8))
    let imports = extras.map { x -> RequestImport.Extras in
      var result = RequestImport.Extras(description: x.description)
      if let record = x.chime["X-CHIME-REQUEST"], let bytes = Base64Text.decode(record),
         let pending = try? RecordCodec().decode(PendingRequest.self, from: bytes) {
        result.own = RequestImport.Own(app: x.chime["X-CHIME-APP"] ?? "", pending: pending, schedule: x.chime["X-CHIME-SCHEDULE"],
                                       properties: x.chime)
      }
      return result
    }
    return RequestImport.plan(item, extras: imports, now: at ?? now, zones: CalendarZones(userZone: berlin))
  }

  func fires(_ trigger: Trigger?, from: Instant) throws -> [Instant] {
    try TriggerPlanner.preview(try #require(trigger), after: from, count: 5, zone: berlin).map(\.instant)
  }

  @Test func everyTriggerKindComesBackWithTheSameFiresAndContent() throws {
    let pending = try requests()
    let outcome = try importing(try export(pending))
    #expect(outcome.skipped.isEmpty, "\(outcome.skipped)")
    #expect(outcome.imported.map(\.request.identifier) == pending.map(\.request.identifier))
    for (original, imported) in zip(pending, outcome.imported) {
      let id = original.request.identifier
      #expect(imported.app == "org.example.from")
      #expect(imported.request.content == original.request.content, "\(id)")
      #expect(imported.request.missedFire == original.request.missedFire, "\(id)")
      #expect(imported.firstFire == original.nextFire, "\(id)")
      switch original.request.trigger {
      case .timeInterval(let t)? where t.repeats:
        // An interval counts from when it is added: the same step, from the import.
        #expect(imported.request.trigger == original.request.trigger, "\(id)")
      case .timeInterval?:
        #expect(try fires(imported.request.trigger, from: now) == [original.nextFire], "\(id)")
      default:
        #expect(imported.request.trigger == original.request.trigger, "\(id)")
        #expect(try fires(imported.request.trigger, from: now) == fires(original.request.trigger, from: now), "\(id)")
      }
    }
  }

  @Test func libicalWritesWhatRFC5545Wants() throws {
    let text = try export(try requests())
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
    #expect(text.contains("VERSION:2.0\r\n") && text.contains("PRODID:-//Chime//chime export//EN\r\n"))
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"))
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"))
    #expect(text.contains("DTSTART;TZID=Europe/Berlin:20990601T093000\r\n"))
    #expect(text.contains("RRULE:FREQ=DAILY;BYMINUTE=30;BYHOUR=9\r\n"), "libical's order of the parts")
    #expect(text.contains("EXDATE;TZID=Europe/Berlin:20990630T170000\r\n"))
    #expect(text.contains("DTSTART:20990601T180000\r\n"), "floating")
    #expect(text.contains("SUMMARY:Title\\, daily\\; with \\\\ and\\nlines\r\n"))
    #expect(text.contains("BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:PT0S\r\n"))
    // Lines are folded at 75 octets.
    #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
  }

  /// X-CHIME values are TEXT: libical escapes `,` `;` `\` and newlines, the reader undoes it.
  @Test func chimePropertiesSurviveTheirEscapes() throws {
    let id = "a,b;c\\d\ne:f"
    let trigger = Trigger.timeInterval(TimeIntervalTrigger(seconds: 600))
    let text = try export([PendingRequest(request: request(id, trigger), nextFire: now.adding(seconds: 600), added: now)])
    let (_, extras, _) = try CalendarFileReader.read(Array(text.utf8))
    #expect(extras.first?.chime["X-CHIME-IDENTIFIER"] == id)
    #expect(extras.first?.chime["X-CHIME-APP"] == "org.example.from")
    #expect(extras.first?.description == "Body of \(id)")
    #expect(try importing(text).imported.first?.request.identifier == id)
  }

  /// The readable X-CHIME-* properties are written, and an edit of one wins over the record.
  @Test func readablePropertiesAreWrittenAndWin() throws {
    let pending = try requests().filter { $0.request.identifier == "daily" }
    var text = try export(pending)
    for line in ["X-CHIME-SUBTITLE;VALUE=TEXT:Sub\r\n", "X-CHIME-CATEGORY;VALUE=TEXT:cat\r\n", "X-CHIME-THREAD;VALUE=TEXT:thread\r\n",
                 "X-CHIME-SOUND;VALUE=TEXT:bell.oga\r\n", "X-CHIME-USER-INFO;VALUE=TEXT:{\"room\":4}\r\n"] {
      #expect(text.contains(line), "\(line)")
    }
    text = text.replacingOccurrences(of: "X-CHIME-CATEGORY;VALUE=TEXT:cat", with: "X-CHIME-CATEGORY;VALUE=TEXT:home")
    text = text.replacingOccurrences(of: "X-CHIME-SOUND;VALUE=TEXT:bell.oga", with: "X-CHIME-SOUND;VALUE=TEXT:none")
    let imported = try #require(try importing(text).imported.first)
    #expect(imported.request.content.categoryIdentifier == "home")
    #expect(imported.request.content.sound == Sound.none)
    #expect(imported.request.content.threadIdentifier == "thread")
  }

  @Test func anEditInACalendarAppWins() throws {
    let pending = try requests().filter { $0.request.identifier == "daily" }
    var text = try export(pending)
    text = text.replacingOccurrences(of: "DTSTART;TZID=Europe/Berlin:20990601T093000", with: "DTSTART;TZID=Europe/Berlin:20990601T103000")
    text = text.replacingOccurrences(of: "BYHOUR=9", with: "BYHOUR=10")
    let outcome = try importing(text)
    let imported = try #require(outcome.imported.first)
    #expect(outcome.imported.count == 1)
    #expect(imported.request.identifier == "daily")
    guard case .recurrence(let r)? = imported.request.trigger else { Issue.record("not a rule: \(imported)"); return }
    #expect(r.rule.text == "FREQ=DAILY;BYHOUR=10;BYMINUTE=30")
    #expect(imported.firstFire == Instant(unixMillis: now.unixMillis + 30_600_000))  // 10:30 Berlin = 08:30Z
    #expect(imported.request.content.sound == .named("bell.oga"))
  }
}

extension String {
  fileprivate func replacingOccurrences(of a: String, with b: String) -> String {
    split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
  }
}
