import ChimeCalendar
import ChimeCore
import Testing

/// Items written inline as calendar programs write them, read through libical and planned.
enum CalendarTestSupport {
  /// A VCALENDAR around `body` (CRLF line ends, as RFC 5545 writes them).
  static func item(_ body: String) -> [UInt8] {
    let text = "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Chime tests//EN\n" + body + "\nEND:VCALENDAR\n"
    return Array(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").utf8)
  }

  static func instant(_ text: String) -> Instant {
    InstantText.parse(text, zone: .utc)!.instant
  }

  /// `at recurrence_id action` per alarm, in order.
  static func alarms(_ body: String, after: String, until: String, tz: String = "UTC",
                     windows: [String: String] = [:]) throws -> [String] {
    try plan(body, after: after, until: until, tz: tz, windows: windows).alarms.map {
      String($0.at.description.prefix(19)) + "Z " + ($0.recurrenceID?.description ?? "-") + " " + $0.action.name
    }
  }

  static func plan(_ body: String, after: String, until: String, tz: String = "UTC", windows: [String: String] = [:]) throws -> AlarmPlan {
    let (item, _) = try CalendarItemReader.read(item(body))
    let zones = CalendarZones(userZone: try #require(Zone.named(tz)), windowsZones: windows)
    return CalendarAlarmPlanner.plan(item, after: instant(after), until: instant(until), zones: zones)
  }
}
