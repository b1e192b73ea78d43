import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeWire
import FoundationEssentials

/// `chime calendar add NAME PATH`: registers a vdir or an .ics file with chimed.
struct CalendarAdd: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Register a calendar: chimed schedules its alarms and follows its files.",
    discussion: """
      PATH is a vdir collection directory (one .ics item per file, as vdirsyncer keeps a CalDAV \
      calendar) or one .ics file. NAME is 1 to 64 letters, digits, '-' or '_'; the calendar's \
      alarms are posted under the app id io.github.chime.calendar.NAME, so `chime settings`, \
      `chime apps` and Do Not Disturb apply to it as to any app. The calendar is scanned at \
      once; changed files are read again within seconds.

      Examples:
        chime calendar add work ~/.calendars/work/personal
        chime calendar add holidays ~/Downloads/holidays.ics --json
      """
  )

  @Argument(help: "The calendar's name.") var name: String
  @Argument(help: "A vdir collection directory or one .ics file.") var path: String
  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let absolute = AttachOption.absolute(path, from: FileManager.default.currentDirectoryPath)
      let source = try await options.connect().addCalendar(request: .init(name: name, path: absolute))
      if options.json { return JSONOutput.print(CalendarJSON.source(source)) }
      print("added \(source.name): \(source.itemCount) items, \(source.alarmCount) alarms scheduled, posted as \(source.appID)")
      for error in source.errors { print("  " + CalendarJSON.describe(error)) }
    }
  }
}

/// `chime calendar list`: the registered calendars.
struct CalendarList: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the registered calendars, their counts, last scan and unreadable files.")

  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let sources = try await options.connect().listCalendars()
      if options.json { return JSONOutput.print(sources.map(CalendarJSON.source)) }
      CalendarJSON.printTable(sources, width: options.tableWidth)
    }
  }
}

/// `chime calendar remove NAME`: forgets a calendar; its pending alarms go.
struct CalendarRemove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Forget a calendar: its pending alarms are withdrawn; its files are untouched.")

  @Argument(help: "The calendar's name.") var name: String
  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let withdrawn = try await options.connect().removeCalendar(request: name)
      if options.json { return JSONOutput.print(["name": name, "withdrawn_alarms": withdrawn] as [String: Any]) }
      print("removed \(name) (\(withdrawn) pending alarm\(withdrawn == 1 ? "" : "s") withdrawn)")
    }
  }
}

/// `chime calendar sync [NAME]`: rescans whole, e.g. after `vdirsyncer sync`.
struct CalendarSync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sync",
    abstract: "Rescan a calendar (or all of them) now; answers once the scan is done.",
    discussion: "chimed follows changed files by itself; this reads every file again, e.g. after editing many by hand.")

  @Argument(help: "The calendar's name (default: every calendar).") var name: String?
  @OptionGroup var options: ClientOptions

  func run() async throws {
    try await reporting(json: options.json) {
      let sources = try await options.connect().syncCalendars(request: name)
      if options.json { return JSONOutput.print(sources.map(CalendarJSON.source)) }
      CalendarJSON.printTable(sources, width: options.tableWidth)
    }
  }
}

/// A calendar as the CLI prints it.
enum CalendarJSON {
  static func source(_ s: CalendarSource) -> [String: Any] {
    ["name": s.name, "path": s.path, "app_id": s.appID, "added": TimeText.iso(s.added),
     "last_scan": s.lastScan.map { JSONValue.string(TimeText.iso($0)) } ?? JSONValue.null,
     "items": s.itemCount, "alarms": s.alarmCount,
     "errors": s.errors.map { ["file": $0.file, "message": $0.message] }]
  }

  static func printTable(_ sources: [CalendarSource], width: Int?) {
    guard !sources.isEmpty else { return print("no calendars (add one with `chime calendar add NAME PATH`)") }
    var table = Table(headers: ["NAME", "ITEMS", "ALARMS", "LAST SCAN", "ERRORS", "PATH"], keep: [0])
    for s in sources {
      table.add([s.name, "\(s.itemCount)", "\(s.alarmCount)", s.lastScan.map(TimeText.local) ?? "never", "\(s.errors.count)", s.path])
    }
    print(table.render(width: width), terminator: "")
    for s in sources {
      for error in s.errors { print("\(s.name): " + describe(error)) }
    }
  }

  /// A file skipped, or (an empty file name) the calendar as a whole not read at its last scan.
  static func describe(_ error: CalendarSource.FileError) -> String {
    error.file.isEmpty ? "not read: \(error.message)" : "skipped \(error.file): \(error.message)"
  }
}
