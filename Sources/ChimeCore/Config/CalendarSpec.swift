import Foundation

/// Parses the CLI's calendar component text: `weekday=2,hour=9,minute=30`, with weekday names
/// (`weekday=mon`) and `ordinal`/`weekday-ordinal` (`-1` = last).
public enum CalendarSpec {
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_SPEC` naming the bad part.
  public static func parse(_ text: String, timeZone: String? = nil) throws(ChimeError) -> CalendarComponents {
    var c = CalendarComponents()
    c.timeZone = timeZone
    let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw bad("give at least one component, e.g. hour=9,minute=30") }
    for part in parts {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { throw bad("\"\(part)\" is not key=value") }
      let key = pair[0].lowercased().replacingOccurrences(of: "_", with: "-")
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

  private static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

  private static func bad(_ message: String) -> ChimeError {
    ChimeError(.invalidCalendarSpec, message, field: "calendar")
  }
}
