// chime-calendar: reads a calendar (a vdir or one .ics file) through libical and prints the
// alarms ChimeCore's planner finds in a window. `chime calendar alarms` runs it instead of
// linking libical, so libical and what it loads (ICU, libstdc++: about 5 ms at every start)
// stay out of every other `chime` command, as chime-thumbnail keeps the image decoders out;
// the daemon will run it the same way, so untrusted items are parsed outside chimed.
//
//   chime-calendar alarms PATH AFTER_MS UNTIL_MS ZONE
// stdout: one JSON object per alarm and line, sorted by `at`:
//   {"uid":…,"recurrence_id":…|null,"summary":…,"at":"…Z","action":"DISPLAY"|"AUDIO","sound":…|null}
// stderr: one line per file skipped or read leniently, and the count of alarms not notified.
// Exit 0; 1 when PATH cannot be read at all (the reason on stderr); 2 for a bad command line.
//
//   chime-calendar scan PATH AFTER_MS UNTIL_MS ZONE [FILE...]
// what chimed runs to scan a registered calendar (see Scan.swift).
//
//   chime-calendar write-back PATH ZONE NOW_MS REQUEST...
// what chimed runs to write a dismissal or a snooze into an item (see WriteBack.swift).
//
//   chime-calendar export NOW_MS ZONE < REQUESTS      chime-calendar import FILE NOW_MS ZONE
// what `chime export --ics` and `chime import` run (see Export.swift and Import.swift).
import ChimeCalendar
import ChimeCore
import ChimeSystem
import Glibc

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "export" || arguments.first == "import" {
  let status = arguments.first == "export" ? Export.run(arguments) : Import.run(arguments)
  StandardStreams.flush()
  exit(status)
}
if arguments.first == "scan" || arguments.first == "write-back" {
  let status = arguments.first == "scan" ? Scan.run(arguments) : WriteBack.run(arguments)
  StandardStreams.flush()
  exit(status)
}
guard arguments.count == 5, arguments[0] == "alarms", let afterMillis = Int64(arguments[2]), let untilMillis = Int64(arguments[3]),
      let zone = Zone.named(arguments[4])
else {
  StandardStreams.writeError("usage: chime-calendar alarms PATH AFTER_MS UNTIL_MS ZONE\n")
  exit(2)
}
let path = arguments[1]
let after = Instant(unixMillis: afterMillis)
let until = Instant(unixMillis: untilMillis)

let entries: [CalendarCollection.Entry]
do {
  entries = try CalendarCollection.read(path)
} catch {
  StandardStreams.writeError("\(error.message)\n")
  exit(1)
}
let zones = CalendarCollection.zones(userZone: zone)
var alarms: [PlannedAlarm] = []
var ignored: [String: Int] = [:]
var messages = ""
for entry in entries {
  for warning in entry.warnings { messages += "\(entry.path): \(warning)\n" }
  switch entry.result {
  case .failure(let error):
    messages += "\(entry.path): skipped: \(error.message)\n"
  case .success(let item):
    let plan = CalendarAlarmPlanner.plan(item, after: after, until: until, zones: zones)
    for problem in plan.problems { messages += "\(entry.path): \(problem)\n" }
    alarms += plan.alarms
    ignored.merge(plan.ignored, uniquingKeysWith: +)
  }
}
for (action, count) in ignored.sorted(by: { $0.key < $1.key }) {
  messages += "\(count) \(action) alarm\(count == 1 ? "" : "s") not listed (Chime notifies DISPLAY and AUDIO)\n"
}
if !messages.isEmpty { StandardStreams.writeError(messages) }

alarms.sort { ($0.at, $0.uid, $0.recurrenceID?.description ?? "", $0.repeatIndex) < ($1.at, $1.uid, $1.recurrenceID?.description ?? "", $1.repeatIndex) }
var out: [UInt8] = []
for a in alarms {
  var sound = JSONWriter.Value.null
  if case .audio(let file?) = a.action { sound = .string(file) }
  JSONWriter.write(.object([
    .init("uid", .string(a.uid)),
    .init("recurrence_id", a.recurrenceID.map { .string($0.description) } ?? .null),
    .init("summary", .string(a.summary ?? "")),
    .init("at", .string(String(a.at.description.prefix(19)) + "Z")),
    .init("action", .string(a.action.name)),
    .init("sound", sound),
  ]), to: &out)
  out.append(0x0A)
}
print(String(decoding: out, as: UTF8.self), terminator: "")
