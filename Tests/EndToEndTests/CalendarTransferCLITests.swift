import ChimeTestSupport
import Foundation
import Testing

/// `chime export --ics` and `chime import` with the built `chime`, `chime-calendar` and a real
/// chimed: requests of every trigger kind exported from one app and imported into another fire
/// at the same instants with the same content; a calendar app's file is imported per alarm.
@Suite(.testTimeLimit) struct CalendarTransferCLITests {
  /// `pending --json` rows of `app` by identifier.
  func pending(_ daemon: DaemonProcess, app: String) throws -> [String: [String: Any]] {
    let run = try ChimeCLI.run(["pending", "--json"], socket: daemon.socketPath, app: app)
    #expect(run.status == 0, "\(run.stderr)")
    let rows = try #require(run.objects, "\(run.stdout) \(run.stderr)")
    return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
  }

  @Test func requestsRoundTripThroughAnICSFile() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let from = "org.example.from", to = "org.example.to"
    let adds: [[String]] = [
      ["add", "interval", "--title", "Stretch", "--in", "1h", "--repeats", "--count", "5"],
      ["add", "daily", "--title", "Standup, daily", "--body", "Room 4\nsecond line", "--calendar", "hour=9,minute=30",
       "--tz", "Europe/Berlin", "--repeats", "--sound", "default", "--category", "work", "--user-info", #"{"room":4}"#],
      ["add", "weekly", "--title", "Gym", "--calendar", "weekday=mon+thu,hour=7", "--tz", "America/New_York", "--repeats"],
      ["add", "floating", "--title", "Dinner", "--calendar", "hour=18", "--repeats"],
      ["add", "rule", "--title", "Last working day", "--rrule", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
       "--start", "2036-12-01T17:00", "--tz", "Europe/Berlin", "--exclude", "2036-12-31T17:00"],
      ["add", "once", "--title", "Once", "--at", "2099-11-23T09:30:00Z"],
    ]
    for add in adds {
      let run = try ChimeCLI.run(add, socket: daemon.socketPath, app: from)
      #expect(run.status == 0, "\(add): \(run.stderr)")
    }
    let file = dir.file("reminders.ics")
    let export = try ChimeCLI.run(["export", "--ics", "--output", file], socket: daemon.socketPath, app: from)
    #expect(export.status == 0, "\(export.stderr)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count == adds.count + 1, "\(text)")
    #expect(text.contains("RRULE:FREQ=HOURLY;COUNT=5"), "\(text)")

    let imported = try ChimeCLI.run(["import", file, "--app", to, "--json"], socket: daemon.socketPath)
    #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
    let before = try pending(daemon, app: from), after = try pending(daemon, app: to)
    #expect(Set(after.keys) == Set(before.keys), "\(imported.stdout)")
    for (id, original) in before {
      let copy = try #require(after[id])
      #expect((copy["content"] as? NSDictionary) == (original["content"] as? NSDictionary), "\(id)")
      if id == "interval" {
        // An interval counts from when it is added: the same step and count, from the import.
        let trigger = try #require(copy["trigger"] as? [String: Any])
        #expect(trigger["seconds"] as? Double == 3600 && trigger["count"] as? Int == 5, "\(trigger)")
        continue
      }
      #expect(copy["next_fire"] as? String == original["next_fire"] as? String, "\(id)")
      if id != "once" {
        #expect((copy["trigger"] as? NSDictionary) == (original["trigger"] as? NSDictionary), "\(id)")
      }
    }
    // Importing again replaces, adds nothing.
    let again = try ChimeCLI.run(["import", file, "--app", to], socket: daemon.socketPath)
    #expect(again.status == 0 && again.stdout.contains("replaced daily"), "\(again.stdout) \(again.stderr)")
    #expect(try pending(daemon, app: to).count == adds.count)
  }

  @Test func aCalendarAppsFileBecomesOneRequestPerAlarm() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let file = dir.file("calendar.ics")
    let lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Calendar//EN",
      "BEGIN:VEVENT", "UID:weekly-1", "DTSTAMP:20260101T000000Z", "DTSTART;TZID=Europe/Berlin:20990105T100000",
      "DTEND;TZID=Europe/Berlin:20990105T110000", "RRULE:FREQ=WEEKLY;BYDAY=MO", "SUMMARY:Team meeting", "LOCATION:Room 4",
      "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Team meeting", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:plain-1", "DTSTAMP:20260101T000000Z", "DTSTART:20991201T120000Z", "SUMMARY:No alarm here", "END:VEVENT",
      "END:VCALENDAR", "",
    ]
    try lines.joined(separator: "\r\n").write(toFile: file, atomically: true, encoding: .utf8)
    let run = try ChimeCLI.run(["import", file, "--app", "org.example.cal"], socket: daemon.socketPath)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("skipped VEVENT plain-1 \"No alarm here\": no VALARM"), "\(run.stdout)")
    let rows = try pending(daemon, app: "org.example.cal")
    let row = try #require(rows["ics:weekly-1"], "\(rows.keys)")
    let trigger = try #require(row["trigger"] as? [String: Any])
    #expect(trigger["rrule"] as? String == "FREQ=WEEKLY;BYDAY=MO")
    #expect(trigger["start"] as? String == "2099-01-05T09:45:00")
    #expect(trigger["tz"] as? String == "Europe/Berlin")
    #expect(row["next_fire"] as? String == "2099-01-05T08:45:00.000Z", "\(row)")
    #expect((row["content"] as? [String: Any])?["body"] as? String == "Room 4")

    let bad = dir.file("bad.ics")
    try "not a calendar".write(toFile: bad, atomically: true, encoding: .utf8)
    let refused = try ChimeCLI.run(["import", bad], socket: daemon.socketPath)
    #expect(refused.status == 1 && refused.stderr.contains("bad.ics"), "\(refused.stderr)")
  }

  /// Python's icalendar and recurring-ical-events (Debian's, in the system Python) read the
  /// export and find its alarms at the requests' next fires.
  @Test func pythonReadsTheAlarmsAtTheNextFires() throws {
    let python = "/usr/bin/python3"
    guard (try? ChildProcess.run(python, ["-c", "import icalendar, recurring_ical_events"], timeout: 30))?.status == 0 else { return }
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    for add in [["add", "daily", "--title", "Daily", "--calendar", "hour=9,minute=30", "--tz", "Europe/Berlin", "--repeats"],
                ["add", "rule", "--title", "Rule", "--rrule", "FREQ=WEEKLY;BYDAY=TU;COUNT=4", "--start", "2099-03-03T08:00",
                 "--tz", "America/New_York", "--exclude", "2099-03-10T08:00"]] {
      #expect(try ChimeCLI.run(add, socket: daemon.socketPath).status == 0)
    }
    let file = dir.file("out.ics")
    #expect(try ChimeCLI.run(["export", "--ics", "-o", file], socket: daemon.socketPath).status == 0)
    let script = """
      import sys, datetime, icalendar, recurring_ical_events
      cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
      a = datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc)
      b = datetime.datetime(2099, 4, 1, tzinfo=datetime.timezone.utc)
      for e in recurring_ical_events.of(cal).between(a, b):
          s = e['DTSTART'].dt
          print(e['X-CHIME-IDENTIFIER'], s.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))
      """
    let run = try ChildProcess.run(python, ["-c", script, file], timeout: 60)
    #expect(run.status == 0, "\(run.errors)")
    let lines = run.output.split(separator: "\n").map(String.init)
    // The rule's occurrences at 08:00 New York (13:00Z), 10 March excluded.
    #expect(lines.filter { $0.hasPrefix("rule ") } == ["rule 2099-03-03T13:00:00Z", "rule 2099-03-17T13:00:00Z", "rule 2099-03-24T13:00:00Z"],
            "\(lines)")
    let daily = lines.filter { $0.hasPrefix("daily ") }
    #expect(daily.first.map { $0.hasSuffix("T08:30:00Z") || $0.hasSuffix("T07:30:00Z") } == true, "\(daily)")
  }

  /// What a calendar app computes from the export is what chimed fires: each exported request's
  /// first alarm, as `chime calendar alarms` reads the file (libical, ChimeCore's RFC 5545
  /// planner), is its next fire; and python recurring-ical-events (the calendar oracle's
  /// virtualenv, when `make test` made it) finds the same alarm instants as that planner.
  @Test func theExportsAlarmsAreTheNextFires() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let adds: [[String]] = [
      ["add", "daily", "--title", "Daily", "--calendar", "hour=9,minute=30", "--tz", "Europe/Berlin", "--repeats"],
      ["add", "weekly", "--title", "Gym", "--calendar", "weekday=mon+thu,hour=7", "--tz", "America/New_York", "--repeats"],
      ["add", "yearly", "--title", "Xmas", "--calendar", "month=12,day=25,hour=8", "--tz", "Asia/Tokyo", "--repeats"],
      ["add", "floating", "--title", "Dinner", "--calendar", "hour=18", "--repeats"],
      ["add", "rule", "--title", "Last working day", "--rrule", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
       "--start", "2036-12-01T17:00", "--tz", "Europe/Berlin", "--exclude", "2036-12-31T17:00"],
      ["add", "once", "--title", "Once", "--at", "2099-11-23T09:30:00Z"],
      ["add", "soon", "--title", "Soon", "--in", "10m"],
    ]
    for add in adds { #expect(try ChimeCLI.run(add, socket: daemon.socketPath).status == 0, "\(add)") }
    let file = dir.file("out.ics")
    #expect(try ChimeCLI.run(["export", "--ics", "-o", file], socket: daemon.socketPath).status == 0)
    let rows = try pending(daemon, app: "chime.cli")
    let alarms = try ChimeCLI.run(["calendar", "alarms", "--path", file, "--after", "2026-01-01T00:00:00Z",
                                   "--until", "2100-01-01T00:00:00Z", "--json"], timeout: 120)
    #expect(alarms.status == 0, "\(alarms.stderr)")
    let listed = try #require(alarms.objects, "\(alarms.stdout.prefix(300))")
    var first: [String: String] = [:]
    for a in listed {
      guard let uid = a["uid"] as? String, let at = a["at"] as? String, first[uid] == nil else { continue }
      first[uid] = at
    }
    for (id, row) in rows {
      let uid = try #require(first.keys.first { uidMatches($0, id, file) }, "\(id) not among \(first.keys)")
      // The interval's DTSTART is its next fire rounded up to the second; the others fire on whole seconds.
      if id != "soon" { #expect(first[uid] == String(try #require(row["next_fire"] as? String).prefix(19)) + "Z", "\(id)") }
    }
    let python = ReadmeCommands.root.appendingPathComponent(".build/calendar-venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: python) else { return }
    let oracle = try ChildProcess.run(python, [ReadmeCommands.root.appendingPathComponent("scripts/calendar/rie_oracle.py").path,
                                               "--chime", DaemonProcess.binDirectory + "/chime", "--tz", "UTC", "--years", "1", file],
                                      timeout: 120)
    #expect(oracle.status == 0, "\(oracle.output)\(oracle.errors)")
  }

  /// Whether `uid` is the UID the export gave request `id` (its X-CHIME-IDENTIFIER beside it).
  func uidMatches(_ uid: String, _ id: String, _ file: String) -> Bool {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return false }
    let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
    return unfolded.components(separatedBy: "BEGIN:VEVENT").contains { $0.contains("UID:\(uid)\r\n") && $0.contains("X-CHIME-IDENTIFIER;VALUE=TEXT:\(id)\r\n") }
  }
}
