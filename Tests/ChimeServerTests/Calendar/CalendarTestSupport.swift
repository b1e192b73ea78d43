@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// The calendar service driven on an in-process daemon's loop, and vdir items written for tests.
extension InProcessDaemon {
  /// Calls the calendar service on the loop and waits for its answer.
  func calendars<T: Sendable>(_ body: @escaping @Sendable (CalendarService, @escaping @Sendable (Result<T, ChimeError>) -> Void) -> Void) async throws -> T {
    try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
      daemon.withCalendars { service in body(service) { c.resume(with: $0.mapError { $0 as any Error }) } }
    }
  }

  func addCalendar(_ name: String, path: String) async throws -> CalendarSource {
    try await calendars { service, reply in service.add(name: name, path: path, reply: reply) }
  }

  func listCalendars() async throws -> [CalendarSource] {
    try await calendars { service, reply in service.list(reply: reply) }
  }

  /// The pending requests of calendar `name`'s app, by due time.
  func calendarPending(_ name: String) async throws -> [PendingRequest] {
    try await client(app: CalendarSource.appID(for: name), over: .inProcess).allPending().sorted { $0.nextFire < $1.nextFire }
  }
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
  func utc(_ t: Instant) -> String {
    let w = CalendarAlarmRequest.wallTime(t.unixMillis / 1000, offset: 0)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(w.year)\(two(w.month))\(two(w.day))T\(two(w.hour))\(two(w.minute))\(two(w.second))Z"
  }
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
