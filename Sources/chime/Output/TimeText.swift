import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// Times as the CLI prints them. Formatted here from the C library's broken-down time (the zone
/// of `$TZ`, else `/etc/localtime`, as `SystemTimeZone` reads it), not with
/// `DateFormatter`: that loads ICU's formatters and data, which more than doubled the memory of
/// a `chime pending` that prints a table.
enum TimeText {
  /// Local wall time with the zone offset, e.g. `2026-11-22 06:40:01 +01:00`.
  static func local(_ instant: Instant) -> String {
    let t = broken(instant, utc: false)
    return day(t) + " " + twoDigits(t.hour) + ":" + twoDigits(t.minute) + ":" + twoDigits(t.second) + " " + offset(t.utcOffsetSeconds)
  }

  /// UTC with milliseconds, e.g. `2026-11-22T05:40:01.250Z`.
  static func iso(_ instant: Instant) -> String {
    let t = broken(instant, utc: true)
    let millis = Int(instant.unixMillis - floorDivide(instant.unixMillis, 1000) * 1000)
    let fraction = String(millis + 1000).dropFirst()
    return day(t) + "T" + twoDigits(t.hour) + ":" + twoDigits(t.minute) + ":" + twoDigits(t.second) + "." + fraction + "Z"
  }

  /// What was asked: `in 2h from 06:30`, `every 1h`, `at 2026-11-24 09:30:00`,
  /// `every weekday=mon,hour=9 Europe/Berlin`. (When it fires is the NEXT FIRE column's job.)
  static func trigger(_ trigger: Trigger?, added: Instant? = nil) -> String {
    switch trigger {
    case nil: return "now"
    case .timeInterval(let t)?:
      if t.repeats { return "every " + DurationText.format(t.seconds) + describe(t.end) }
      return "in " + DurationText.format(t.seconds) + (added.map { " from " + clock($0) } ?? "")
    case .calendar(let c)?:
      if !c.repeats, CalendarSpec.isInstant(c.components), let date = instantDate(c.components) {
        return "at " + wall(Instant(date))
      }
      return (c.repeats ? "every " : "at ") + describe(c.components) + describe(c.end)
    case .recurrence(let r)?:
      return "rule " + describe(r)
    }
  }

  /// ` until 2026-12-24 18:00:00 +01:00, 5 times`, or nothing without an end.
  static func describe(_ end: RepeatEnd?) -> String {
    guard let end else { return "" }
    var parts: [String] = []
    if let until = end.until { parts.append("until " + wall(until)) }
    if let count = end.count { parts.append(count == 1 ? "once" : "\(count) times") }
    return parts.isEmpty ? "" : " " + parts.joined(separator: ", ")
  }

  /// The rule, start, zone and exclusions exactly as given:
  /// `FREQ=DAILY;COUNT=3 from 2026-12-01T17:00 Europe/Berlin except 2026-12-02T17:00`.
  static func describe(_ r: Recurrence) -> String {
    var text = "\(r.ruleText) from \(r.startText)"
    if let zone = r.timeZone, !zone.isEmpty { text += " \(zone)" }
    if !r.exclusionTexts.isEmpty { text += " except " + r.exclusionTexts.joined(separator: ", ") }
    return text
  }

  /// The instant an `--at` trigger's components name (read as UTC).
  static func instantDate(_ c: CalendarComponents) -> Date? {
    guard let year = c.year, let month = c.month, let day = c.day else { return nil }
    let seconds = BrokenDownTime.utcSeconds(year: year, month: month, day: day, hour: c.hour ?? 0,
                                            minute: c.minute ?? 0, second: c.second ?? 0)
    return Date(timeIntervalSince1970: Double(seconds))
  }

  /// Local `HH:mm` (with seconds when not zero).
  static func clock(_ instant: Instant) -> String {
    let t = broken(instant, utc: false)
    return twoDigits(t.hour) + ":" + twoDigits(t.minute) + (t.second == 0 ? "" : ":" + twoDigits(t.second))
  }

  /// Local `yyyy-MM-dd HH:mm[:ss]`.
  static func wall(_ instant: Instant) -> String {
    day(broken(instant, utc: false)) + " " + clock(instant)
  }

  // MARK: Broken-down time

  private static func broken(_ instant: Instant, utc: Bool) -> BrokenDownTime {
    BrokenDownTime(secondsSinceEpoch: floorDivide(instant.unixMillis, 1000), utc: utc)
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  /// `yyyy-MM-dd`.
  private static func day(_ t: BrokenDownTime) -> String {
    let year = t.year
    let digits = String(abs(year))
    let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    return (year < 0 ? "-" : "") + padded + "-" + twoDigits(t.month) + "-" + twoDigits(t.day)
  }

  private static func twoDigits(_ n: Int) -> String {
    n < 10 && n >= 0 ? "0\(n)" : "\(n)"
  }

  /// `+01:00`, `-05:00`, `+05:45` (seconds of a historical offset are dropped, as ICU's `xxx`).
  private static func offset(_ seconds: Int) -> String {
    let minutes = abs(seconds) / 60
    return (seconds < 0 ? "-" : "+") + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
  }

  static func describe(_ c: CalendarComponents) -> String {
    let text = CalendarSpec.format(c)
    return c.timeZone.map { "\(text) \($0)" } ?? text
  }

  static func eventLine(_ event: Event) -> String {
    // Cursor 0: an event that is not stored (seen live only), which no --after resumes from.
    var line = "\(local(event.at))  \(event.cursor == 0 ? "live" : "#\(event.cursor)")  \(event.kind.name)"
    if !event.identifiers.isEmpty { line += "  " + event.identifiers.joined(separator: ", ") }
    if let d = event.delivered {
      let title = ContentText.title(d.request.content)
      if !title.isEmpty { line += "  \"\(title)\"" }
      let late = Double(d.delivered.millis(since: d.due)) / 1000
      line += d.missed ? "  (missed; was due \(local(d.due)))" : late >= 1 ? "  (\(DurationText.format(late)) late)" : ""
      if event.kind == .delivered, let ring = d.request.content.ring { line += "  rings \(DurationText.exact(Double(ring.seconds)))" }
    } else if let p = event.pending {
      line += event.kind == .snoozed ? "  until \(local(p.nextFire))" : "  next \(local(p.nextFire))"
    } else if let r = event.response {
      line += "  \(r.actionIdentifier)"
      if r.snoozeSeconds > 0 { line += " \(DurationText.exact(Double(r.snoozeSeconds)))" }
      if !r.userText.isEmpty { line += "  \"\(r.userText)\"" }
    }
    if let count = event.badgeCount { line += "  badge \(count)" }
    if !event.note.isEmpty && event.kind != .subscribed { line += "  — \(event.note)" }
    return line
  }
}
