import ChimeCore
import Foundation

enum TimeText {
  /// Local wall time with the zone offset, e.g. `2026-11-22 06:40:01 +01:00`.
  static func local(_ instant: Instant) -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xxx"
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return formatter.string(from: instant.date)
  }

  static func iso(_ instant: Instant) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: instant.date)
  }

  static func trigger(_ trigger: Trigger?) -> String {
    switch trigger {
    case nil: return "now"
    case .timeInterval(let t)?: return (t.repeats ? "every " : "in ") + DurationText.format(t.seconds)
    case .calendar(let c)?: return (c.repeats ? "every " : "at ") + describe(c.components)
    }
  }

  static func describe(_ c: CalendarComponents) -> String {
    let parts: [(String, Int?)] = [("year", c.year), ("month", c.month), ("day", c.day), ("weekday", c.weekday),
                                   ("ordinal", c.weekdayOrdinal), ("week-of-month", c.weekOfMonth), ("week-of-year", c.weekOfYear),
                                   ("hour", c.hour), ("minute", c.minute), ("second", c.second)]
    let text = parts.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: ",")
    return c.timeZone.map { "\(text) \($0)" } ?? text
  }

  static func eventLine(_ event: Event) -> String {
    var line = "\(local(event.at))  #\(event.cursor)  \(event.kind.name)"
    if !event.identifiers.isEmpty { line += "  " + event.identifiers.joined(separator: ", ") }
    if let d = event.delivered {
      if !d.request.content.title.isEmpty { line += "  \"\(d.request.content.title)\"" }
      let late = Double(d.delivered.millis(since: d.due)) / 1000
      line += d.missed ? "  (missed; was due \(local(d.due)))" : late >= 1 ? "  (\(DurationText.format(late)) late)" : ""
    } else if let p = event.pending {
      line += "  next \(local(p.nextFire))"
    } else if let r = event.response {
      line += "  \(r.actionIdentifier)"
      if !r.userText.isEmpty { line += "  \"\(r.userText)\"" }
    }
    if let count = event.badgeCount { line += "  badge \(count)" }
    if !event.note.isEmpty && event.kind != .subscribed { line += "  — \(event.note)" }
    return line
  }
}
