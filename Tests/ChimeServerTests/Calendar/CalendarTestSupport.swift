@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeWire
import Foundation
import Testing

/// The calendar calls as the CLI makes them (over the in-process transport, as the user's own
/// program), and vdir items written for tests.
extension InProcessDaemon {
  var user: ChimeClient { get throws { try client(app: "chime.cli", over: .inProcess) } }

  func addCalendar(_ name: String, path: String) async throws -> CalendarSource {
    try await user.addCalendar(request: .init(name: name, path: path))
  }

  func listCalendars() async throws -> [CalendarSource] {
    try await user.listCalendars()
  }

  func removeCalendar(_ name: String) async throws -> Int {
    try await user.removeCalendar(request: name)
  }

  func syncCalendars(_ name: String? = nil) async throws -> [CalendarSource] {
    try await user.syncCalendars(request: name)
  }

  /// The pending requests of calendar `name`'s app, by due time.
  func calendarPending(_ name: String) async throws -> [PendingRequest] {
    try await client(app: CalendarSource.appID(for: name), over: .inProcess).allPending().sorted { $0.nextFire < $1.nextFire }
  }

  /// The delivered notifications of calendar `name`'s app, by delivery.
  func calendarDelivered(_ name: String) async throws -> [DeliveredNotification] {
    try await client(app: CalendarSource.appID(for: name), over: .inProcess).allDelivered().sorted { $0.delivered < $1.delivered }
  }
}

/// `t` as iCalendar writes a UTC instant: `20991124T093000Z`.
func icsUTC(_ t: Instant) -> String {
  let w = CalendarAlarmRequest.wallTime(t.unixMillis / 1000, offset: 0)
  func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
  return "\(w.year)\(two(w.month))\(two(w.day))T\(two(w.hour))\(two(w.minute))\(two(w.second))Z"
}

/// The text of the item file `name` in `directory`.
func itemText(_ name: String, in directory: String) throws -> String {
  try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
}

/// Polls an async condition every 10 ms for at most `seconds` (changes picked up by inotify on
/// the daemon's loop); records an issue when it never holds.
@discardableResult
func eventually(within seconds: Double = 5, _ condition: () async throws -> Bool,
                sourceLocation: SourceLocation = #_sourceLocation) async throws -> Bool {
  for _ in 0..<Int(seconds * 100) {
    if try await condition() { return true }
    try await Task.sleep(for: .milliseconds(10))
  }
  if try await condition() { return true }
  Issue.record("condition not met within \(seconds) s", sourceLocation: sourceLocation)
  return false
}

/// A vdir item: one VEVENT starting at `start` (UTC) for 30 minutes, with a display alarm 10
/// minutes before it.
func calendarItem(uid: String, summary: String, start: Instant, location: String? = nil, rule: String? = nil,
                  exceptions: [Instant] = []) -> String {
  let utc = icsUTC
  var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
               "DTSTAMP:20260101T000000Z", "DTSTART:\(utc(start))", "DTEND:\(utc(Instant(unixMillis: start.unixMillis + 1_800_000)))",
               "SUMMARY:\(summary)"]
  if let location { lines.append("LOCATION:\(location)") }
  if let rule { lines.append("RRULE:\(rule)") }
  for e in exceptions { lines.append("EXDATE:\(utc(e))") }
  lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT", "END:VCALENDAR"]
  return lines.joined(separator: "\r\n") + "\r\n"
}

/// Writes `text` into `directory/name` as vdirsyncer does: a hidden temporary, then a rename.
func writeItem(_ text: String, _ name: String, in directory: String) throws {
  let temporary = directory + "/." + name + ".tmp"
  try text.write(toFile: temporary, atomically: false, encoding: .utf8)
  guard rename(temporary, directory + "/" + name) == 0 else { throw CocoaError(.fileWriteUnknown) }
}
