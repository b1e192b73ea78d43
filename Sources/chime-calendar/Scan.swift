import ChimeCalendar
import ChimeCore
import ChimeSystem
import Glibc

/// `chime-calendar scan PATH AFTER_MS UNTIL_MS ZONE [FILE...]`: what chimed runs to (re)scan a
/// registered calendar. Reads the collection's `.ics` files (or, with FILEs, only those names
/// in it; a one-file calendar is its own file) one at a time, so memory stays that of one item,
/// and prints `CalendarScanLine`s for the window: each file's alarms, then the file's outcome.
/// Exit 0; 1 when PATH cannot be read at all (the reason on stderr); 2 for a bad command line.
enum Scan {
  static func run(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 5, let afterMillis = Int64(arguments[2]), let untilMillis = Int64(arguments[3]),
          let zone = Zone.named(arguments[4])
    else {
      StandardStreams.writeError("usage: chime-calendar scan PATH AFTER_MS UNTIL_MS ZONE [FILE...]\n")
      return 2
    }
    let path = arguments[1]
    let named = Array(arguments.dropFirst(5))
    guard let status = FileSystem.status(path) else {
      StandardStreams.writeError("\(path) does not exist\n")
      return 1
    }
    let directory = status.kind == .directory
    var files: [String]
    if !named.isEmpty {
      files = named
    } else if directory {
      do {
        files = try FileSystem.directoryEntries(path).filter(isItemName).sorted()
      } catch {
        StandardStreams.writeError("\(path) cannot be listed (\(error))\n")
        return 1
      }
      files = Array(files.prefix(CalendarCollection.fileLimit))
    } else {
      files = [path]
    }
    let zones = CalendarCollection.zones(userZone: zone)
    let after = Instant(unixMillis: afterMillis), until = Instant(unixMillis: untilMillis)
    var out = ""
    for file in files {
      let full = directory ? path + (path.hasSuffix("/") ? "" : "/") + file : path
      out += lines(file: file, full: full, after: after, until: until, zones: zones)
      if out.utf8.count > 1 << 16 {
        write(out)
        out = ""
      }
    }
    write(out)
    return 0
  }

  /// The names a vdir's items have: `.ics`, not hidden (vdirsyncer's temporaries start with a dot).
  static func isItemName(_ name: String) -> Bool {
    name.lowercased().hasSuffix(".ics") && !name.hasPrefix(".") && !name.contains("/")
  }

  private static func lines(file: String, full: String, after: Instant, until: Instant, zones: CalendarZones) -> String {
    guard let status = FileSystem.status(full) else { return CalendarScanLine.gone(file: file).encoded + "\n" }
    guard status.isRegular else {
      return CalendarScanLine.failed(file: file, message: "not a regular file").encoded + "\n"
    }
    let entries: [CalendarCollection.Entry]
    do {
      entries = try CalendarCollection.read(full)
    } catch {
      return CalendarScanLine.failed(file: file, message: error.message).encoded + "\n"
    }
    guard let entry = entries.first else { return CalendarScanLine.gone(file: file).encoded + "\n" }
    switch entry.result {
    case .failure(let error):
      return CalendarScanLine.failed(file: file, message: error.message).encoded + "\n"
    case .success(let item):
      let plan = CalendarAlarmPlanner.plan(item, after: after, until: until, zones: zones)
      var text = ""
      for alarm in plan.alarms { text += CalendarScanLine.alarm(file: file, alarm).encoded + "\n" }
      for alarm in plan.acknowledged { text += CalendarScanLine.acknowledged(file: file, alarm).encoded + "\n" }
      return text + CalendarScanLine.item(file: file, alarms: plan.alarms.count).encoded + "\n"
    }
  }

  private static func write(_ text: String) {
    guard !text.isEmpty else { return }
    print(text, terminator: "")
  }
}
