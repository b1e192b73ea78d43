import ChimeClient
import ChimeCore
import ChimeWire
import Foundation

/// Issue 41's scan figure: a vdir of `--vdir-events` items (one in ten weekly, spread over ten
/// years around now, each with a VALARM) registered with chimed, read whole again, and one
/// edited file picked up; chimed's RSS before and after. The floor is `chime-calendar scan`
/// reading the same vdir alone (libical's parse and the planner, what chimed runs on its work
/// pool), so the figure says what the daemon adds: the store, the requests, the schedule.
extension Bench {
  func calendarPhase(daemon: DaemonHandle, directory: String, report: inout Report) async throws {
    guard vdirEvents > 0 else { return }
    let vdir = directory + "/vdir"
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let now = Int64(Date().timeIntervalSince1970)
    let span: Int64 = 10 * 365 * 86_400
    for i in 0..<vdirEvents {
      let start = now - span / 2 + Int64(i) * (span / Int64(vdirEvents))
      try Self.item(uid: "event-\(i)", start: start, weekly: i % 10 == 0).write(toFile: vdir + "/event-\(i).ics", atomically: false, encoding: .utf8)
    }
    let helper = program("chime-calendar")
    let nowMillis = now * 1000
    let floor = try Spawned.run(helper, ["scan", vdir, "\(nowMillis)", "\(nowMillis + 2 * 86_400_000)", "UTC"], scratch: directory, timeoutSeconds: 300)
    guard floor.status == 0 else { throw BenchError("chime-calendar scan exited \(floor.status)") }
    report.floor("vdir-\(vdirEvents)-helper-scan", floor.wallSeconds, "s", note: "chime-calendar scan alone, peak RSS \(floor.peakRSSKiB / 1024) MiB")

    let client = try ChimeClient.connect(socketPath: daemon.socket, app: "chime.bench", timeout: 600)
    let before = daemon.residentKiB()
    var start = ContinuousClock.now
    let added = try await client.addCalendar(request: WireCodec.CalendarAddition(name: "bench", path: vdir))
    let add = (ContinuousClock.now - start).seconds
    let after = daemon.residentKiB()
    start = ContinuousClock.now
    _ = try await client.syncCalendars(request: "bench")
    let rescan = (ContinuousClock.now - start).seconds

    // Items moved one at a time to an hour from now, each picked up through inotify (the rest
    // left alone): from the rename into place to the calendar's alarm count changing.
    var edits: [Double] = []
    for i in 0..<5 {
      let before = try await client.listCalendars().first?.alarmCount ?? 0
      let name = "event-\(i * 7 + 3)"
      start = ContinuousClock.now
      try Self.item(uid: name, start: now + 3600 + Int64(i) * 60, weekly: false)
        .write(toFile: vdir + "/.\(name).tmp", atomically: false, encoding: .utf8)
      rename(vdir + "/.\(name).tmp", vdir + "/\(name).ics")
      var edit = -1.0
      while (ContinuousClock.now - start).seconds < 30 {
        if try await client.listCalendars().first?.alarmCount != before {
          edit = (ContinuousClock.now - start).seconds
          break
        }
        usleep(2_000)
      }
      guard edit >= 0 else { throw BenchError("an edited calendar item was not picked up within 30 s") }
      edits.append(edit)
    }
    let peak = daemon.residentKiB()
    report.figure("vdir-\(vdirEvents)-add", add, "s")
    report.figure("vdir-\(vdirEvents)-rescan", rescan, "s")
    report.figure("vdir-one-edit-picked-up", rounds: edits, "s", note: "median of \(edits.count) edits")
    report.figure("vdir-\(vdirEvents)-daemon-rss-growth", Double(max(0, peak - before)) / 1024, "MiB")
    print(String(format: "calendar: %d-item vdir (%d alarms in the next two days): add %.2f s (%.2f× the helper's scan alone, %.2f s, peak %d MiB), whole rescan %.2f s, an edited item picked up in %.3f s (median of %d); chimed RSS %.1f → %.1f → %.1f MiB",
                 added.itemCount, added.alarmCount, add, add / floor.wallSeconds, floor.wallSeconds, floor.peakRSSKiB / 1024, rescan, edits.sorted().percentile(0.5), edits.count,
                 Double(before) / 1024, Double(after) / 1024, Double(peak) / 1024))
  }

  /// The calendar phase's goals (issue 44), after the add goals.
  func calendarChecks(_ report: inout Report) {
    report.check("vdir scan through chimed vs the helper alone", figure: "vdir-\(vdirEvents)-add", floor: "vdir-\(vdirEvents)-helper-scan",
                 atLeast: false, bound: 2)
    report.check("first scan of a \(vdirEvents)-item calendar", figure: "vdir-\(vdirEvents)-add", atMost: 3)
    report.check("chimed's RSS growth with the calendar", figure: "vdir-\(vdirEvents)-daemon-rss-growth", atMost: 20)
    report.check("a renamed-in item re-planned", figure: "vdir-one-edit-picked-up", atMost: 0.2, note: "inotify, no whole rescan")
  }

  static func item(uid: String, start: Int64, weekly: Bool) -> String {
    func utc(_ seconds: Int64) -> String {
      let d = Date(timeIntervalSince1970: TimeInterval(seconds))
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: d)
      return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//chime-bench//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z",
                 "DTSTART:\(utc(start))", "DTEND:\(utc(start + 1800))", "SUMMARY:\(uid)", "LOCATION:Room \(uid.count % 40)"]
    if weekly { lines.append("RRULE:FREQ=WEEKLY;COUNT=52") }
    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
  }
}
