import ArgumentParser
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime calendar`: the user's calendars, registered with chimed (add, list, remove, sync) or
/// previewed without it (alarms).
struct CalendarCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar",
    abstract: "Alarms of iCalendar calendars (vdirs).",
    subcommands: [CalendarAdd.self, CalendarList.self, CalendarRemove.self, CalendarSync.self, CalendarAlarms.self]
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
        chime calendar alarms --path ~/.calendars/work --after 2099-12-01T00:00Z \\
          --until 2099-12-08T00:00Z --json
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
        throw ValidationError("\(option): \"\(text)\" is not a date-time; write 2099-11-24T09:30:00Z or 2099-11-24T09:30:00+01:00")
      }
      return parsed.instant
    }
    let from = try after.map { try instant($0, "--after") } ?? SystemWallClock().now()
    let to = try until.map { try instant($0, "--until") } ?? from.adding(seconds: 7 * 86_400)
    guard from <= to else { throw ValidationError("--until is before --after") }

    // Read and planned by the chime-calendar helper: libical (and the ICU and libstdc++ it
    // loads) is not linked into chime, so every other command starts without it.
    guard let helper = CalendarHelper.locate() else {
      printError("chime: no \(CalendarHelper.name) found (looked in \(CalendarHelper.candidates().joined(separator: ", ")))")
      throw ExitCode(1)
    }
    let run = Subprocess.capture([helper, "alarms", path, String(from.unixMillis), String(to.unixMillis), zone.identifier],
                                 timeoutMillis: 120_000, maxOutputBytes: 64 << 20)
    for line in String(decoding: run.stderr, as: UTF8.self).split(whereSeparator: \.isNewline) { printError("chime: \(line)") }
    guard run.outcome == .exited(0), !run.truncated else {
      if run.outcome != .exited(1) { printError("chime: \(CalendarHelper.name) ended: \(run.outcome)\(run.truncated ? " (output too large)" : "")") }
      throw ExitCode(1)
    }
    let alarms = try String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map { line in
      try JSONDecoder().decode(HelperAlarm.self, from: Data(line.utf8))
    }
    if json {
      JSONOutput.print(alarms.map { a -> [String: Any] in
        ["uid": a.uid, "recurrence_id": a.recurrence_id.map { JSONValue.string($0) } ?? JSONValue.null, "summary": a.summary,
         "at": a.at, "action": a.action]
      })
      return
    }
    var table = Table(headers: ["AT (UTC)", "ACTION", "SUMMARY", "OCCURRENCE"], keep: [0])
    for a in alarms {
      table.add([a.at, a.action, a.summary, a.recurrence_id ?? ""])
    }
    print(table.render(width: OutputWidth.columns(requested: nil)), terminator: "")
  }
}

/// One line of chime-calendar's output.
private struct HelperAlarm: Decodable {
  var uid: String
  var recurrence_id: String?
  var summary: String
  var at: String
  var action: String
  var sound: String?
}

/// The `chime-calendar` helper: beside this executable, else in the libexec directory beside
/// its `bin` (`make install`), as chime-thumbnail is found.
enum CalendarHelper {
  static let name = "chime-calendar"

  static func locate() -> String? { HelperProgram.locate(name) }

  static func candidates() -> [String] { HelperProgram.candidates(name) }
}
