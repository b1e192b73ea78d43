import ArgumentParser
import ChimeCalendar
import ChimeCore
import ChimeSystem

/// `chime calendar`: the user's calendars (issue 41). Only the preview is here yet; adding a
/// calendar to the daemon waits for its wire calls (issue 40).
struct CalendarCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "Alarms of iCalendar calendars (vdirs).",
    subcommands: [CalendarAlarms.self]
  )
}

/// `chime calendar alarms`: what alarms a vdir (or one .ics file) holds for a window, without
/// a daemon, as `chime next` previews a trigger.
struct CalendarAlarms: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "alarms",
    abstract: "Preview a calendar's alarms in a window (no daemon needed).",
    discussion: """
      PATH is a vdir (a directory of .ics files, one item each, as vdirsyncer writes them) or \
      one .ics file. Each VALARM of an event or to-do (ACTION DISPLAY or AUDIO) is listed at \
      the instant it fires, each REPEAT on its own line; EMAIL and PROCEDURE alarms are \
      counted, not listed. Recurrences (RRULE, RDATE, EXDATE, overridden and cancelled \
      occurrences) are expanded; acknowledged alarms (ACKNOWLEDGED, X-MOZ-LASTACK) are left out.

      Floating times and all-day dates are read in --tz (default: the local zone). A file \
      that cannot be read is reported on stderr and the others are still listed.

      Example:
        chime calendar alarms --path ~/.calendars/work --after 2026-12-01T00:00Z \\
          --until 2026-12-08T00:00Z --json
      """
  )

  @Option(help: "A vdir collection directory or one .ics file.") var path: String
  @Option(parsing: .unconditional, help: "From this instant, inclusive (ISO 8601; without an offset, local; default now).") var after: String?
  @Option(parsing: .unconditional, help: "Up to this instant, exclusive (default: 7 days after --after).") var until: String?
  @Option(help: "IANA zone of floating times and all-day dates (default: the local zone).") var tz: String?
  @Flag(help: "Print JSON: an array of {uid, recurrence_id, summary, at, action} sorted by at.") var json = false

  func run() throws {
    let local = SystemTimeZone.current()
    var zone = local
    if let tz {
      guard let named = Zone.named(tz) else { throw ValidationError("--tz: unknown time zone \"\(tz)\"") }
      zone = named
    }
    func instant(_ text: String, _ option: String) throws -> Instant {
      guard let parsed = InstantText.parse(text, zone: local) else {
        throw ValidationError("\(option): \"\(text)\" is not a date-time; write 2026-11-24T09:30:00Z or 2026-11-24T09:30:00+01:00")
      }
      return parsed.instant
    }
    let from = try after.map { try instant($0, "--after") } ?? SystemWallClock().now()
    let to = try until.map { try instant($0, "--until") } ?? from.adding(seconds: 7 * 86_400)
    guard from <= to else { throw ValidationError("--until is before --after") }

    let entries: [CalendarCollection.Entry]
    do {
      entries = try CalendarCollection.read(path)
    } catch {
      printError("chime: \(error.message)")
      throw ExitCode(1)
    }
    let zones = CalendarZones(userZone: zone, windowsZones: CalendarCollection.windowsZones())
    var alarms: [PlannedAlarm] = []
    var ignored: [String: Int] = [:]
    for entry in entries {
      for warning in entry.warnings { printError("chime: \(entry.path): \(warning)") }
      switch entry.result {
      case .failure(let error):
        printError("chime: \(entry.path): skipped: \(error.message)")
      case .success(let item):
        let plan = CalendarAlarmPlanner.plan(item, after: from, until: to, zones: zones)
        for problem in plan.problems { printError("chime: \(entry.path): \(problem)") }
        alarms += plan.alarms
        ignored.merge(plan.ignored, uniquingKeysWith: +)
      }
    }
    alarms.sort { ($0.at, $0.uid, $0.recurrenceID?.description ?? "", $0.repeatIndex) < ($1.at, $1.uid, $1.recurrenceID?.description ?? "", $1.repeatIndex) }
    for (action, count) in ignored.sorted(by: { $0.key < $1.key }) {
      printError("chime: \(count) \(action) alarm\(count == 1 ? "" : "s") not listed (Chime notifies DISPLAY and AUDIO)")
    }
    if json {
      JSONOutput.print(alarms.map { a -> [String: Any] in
        ["uid": a.uid, "recurrence_id": a.recurrenceID.map { JSONValue.string($0.description) } ?? JSONValue.null, "summary": a.summary ?? "",
         "at": String(a.at.description.prefix(19)) + "Z", "action": a.action.name]
      })
      return
    }
    var table = Table(headers: ["AT (UTC)", "ACTION", "SUMMARY", "OCCURRENCE"], keep: [0])
    for a in alarms {
      table.add([String(a.at.description.prefix(19)) + "Z", a.action.name, a.summary ?? "", a.recurrenceID?.description ?? ""])
    }
    print(table.render(width: OutputWidth.columns(requested: nil)), terminator: "")
  }
}
