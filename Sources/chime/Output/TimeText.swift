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

  /// What was asked: `in 2h from 06:30`, `every 1h`, `at 2026-11-24 09:30:00`,
  /// `every weekday=mon,hour=9 Europe/Berlin`. (When it fires is the NEXT FIRE column's job.)
  static func trigger(_ trigger: Trigger?, added: Instant? = nil) -> String {
    switch trigger {
    case nil: return "now"
    case .timeInterval(let t)?:
      if t.repeats { return "every " + DurationText.format(t.seconds) }
      return "in " + DurationText.format(t.seconds) + (added.map { " from " + clock($0) } ?? "")
    case .calendar(let c)?:
      if !c.repeats, CalendarSpec.isInstant(c.components), let date = instantDate(c.components) {
        return "at " + wall(Instant(date))
      }
      return (c.repeats ? "every " : "at ") + describe(c.components)
    }
  }

  /// The instant an `--at` trigger's components name.
  static func instantDate(_ c: CalendarComponents) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second))
  }

  /// Local `HH:mm` (with seconds when not zero).
  static func clock(_ instant: Instant) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = Calendar.current.component(.second, from: instant.date) == 0 ? "HH:mm" : "HH:mm:ss"
    return formatter.string(from: instant.date)
  }

  /// Local `yyyy-MM-dd HH:mm[:ss]`.
  static func wall(_ instant: Instant) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: instant.date) + " " + clock(instant)
  }

  static func describe(_ c: CalendarComponents) -> String {
    let text = CalendarSpec.format(c)
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
