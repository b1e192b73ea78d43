public import FoundationEssentials

/// Parses the CLI's calendar component text: `weekday=2,hour=9,minute=30`, with weekday names
/// (`weekday=mon`) and `ordinal`/`weekday-ordinal` (`-1` = last).
public enum CalendarSpec {
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_SPEC` naming the bad part.
  public static func parse(_ text: String, timeZone: String? = nil) throws(ChimeError) -> CalendarComponents {
    var c = CalendarComponents()
    c.timeZone = timeZone
    let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw bad("give at least one component, e.g. hour=9,minute=30") }
    var seen: Set<String> = []
    for part in parts {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
      guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else { throw bad("\"\(part)\" is not key=value") }
      var key = String(pair[0].lowercased().map { $0 == "_" ? "-" : $0 })
      if key == "weekday-ordinal" { key = "ordinal" }
      guard seen.insert(key).inserted else { throw bad("\(key) is given twice; a trigger matches one value per component") }
      let raw = pair[1]
      let value: Int
      if key == "weekday", let day = weekdays[raw.lowercased().prefix(3).description] {
        value = day
      } else if let n = Int(raw) {
        value = n
      } else {
        throw bad("\"\(raw)\" is not a number for \(key)")
      }
      switch key {
      case "year": c.year = value
      case "month": c.month = value
      case "day": c.day = value
      case "hour": c.hour = value
      case "minute": c.minute = value
      case "second": c.second = value
      case "weekday": c.weekday = value
      case "ordinal", "weekday-ordinal": c.weekdayOrdinal = value
      case "week-of-month": c.weekOfMonth = value
      case "week-of-year": c.weekOfYear = value
      case "year-for-week-of-year": c.yearForWeekOfYear = value
      default: throw bad("unknown component \"\(pair[0])\" (year, month, day, hour, minute, second, weekday, ordinal, week-of-month, week-of-year, year-for-week-of-year)")
      }
    }
    return c
  }

  /// The weekday's short name as `parse` reads it: 2 → `mon`.
  public static func weekdayName(_ day: Int) -> String? {
    weekdays.first { $0.value == day }?.key
  }

  /// The components as `parse` reads them back (`weekday=mon,hour=9,minute=30`), zone aside.
  public static func format(_ c: CalendarComponents) -> String {
    let parts: [(String, Int?)] = [("year", c.year), ("month", c.month), ("day", c.day), ("weekday", c.weekday),
                                   ("ordinal", c.weekdayOrdinal), ("week-of-month", c.weekOfMonth), ("week-of-year", c.weekOfYear),
                                   ("year-for-week-of-year", c.yearForWeekOfYear),
                                   ("hour", c.hour), ("minute", c.minute), ("second", c.second)]
    return parts.compactMap { name, value in
      guard let value else { return nil }
      if name == "weekday", let day = weekdayName(value) { return "weekday=\(day)" }
      return "\(name)=\(value)"
    }.joined(separator: ",")
  }

  /// True for the shape `chime add --at` stores: every component from year to second, in UTC,
  /// and nothing else — one instant.
  public static func isInstant(_ c: CalendarComponents) -> Bool {
    c.year != nil && c.month != nil && c.day != nil && c.hour != nil && c.minute != nil && c.second != nil
      && c.weekday == nil && c.weekdayOrdinal == nil && c.weekOfMonth == nil && c.weekOfYear == nil
      && c.yearForWeekOfYear == nil && (c.timeZone == "UTC" || c.timeZone == "Etc/UTC" || c.timeZone == "GMT")
  }

  /// The components of `date` in UTC, year to second (fractions dropped): one instant as a
  /// calendar pattern.
  public static func instant(_ date: Date) -> CalendarComponents {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    var c = CalendarComponents()
    c.year = parts.year
    c.month = parts.month
    c.day = parts.day
    c.hour = parts.hour
    c.minute = parts.minute
    c.second = parts.second
    c.timeZone = "UTC"
    return c
  }

  private static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

  private static func bad(_ message: String) -> ChimeError {
    ChimeError(.invalidCalendarSpec, message, field: "calendar")
  }
}
