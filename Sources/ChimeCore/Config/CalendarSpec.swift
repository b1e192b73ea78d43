public import FoundationEssentials

/// Parses the CLI's calendar component text: `weekday=2,hour=9,minute=30`, with weekday names
/// (`weekday=mon` or `weekday=monday`) and `ordinal`/`weekday-ordinal` (`-1` = last).
///
/// Each value is read whole or refused: `weekday=monxyz` is not Monday. Lists and ranges
/// (`weekday=mon-fri`, `weekday=mon,wed,fri`) are refused as not supported yet, since a trigger
/// matches one value per component.
public enum CalendarSpec {
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_SPEC` naming the bad part and what is accepted.
  public static func parse(_ text: String, timeZone: String? = nil) throws(ChimeError) -> CalendarComponents {
    var c = CalendarComponents()
    c.timeZone = timeZone
    let parts = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    guard !parts.isEmpty else { throw bad("give at least one component, e.g. hour=9,minute=30") }
    var seen: Set<String> = []
    var previousKey: String?
    for part in parts {
      let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
      guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
        if let previousKey, !part.contains("=") {
          throw bad("\"\(part)\" after \(previousKey)= is not key=value: \(listsNotSupported(previousKey))")
        }
        throw bad("\"\(part)\" is not key=value")
      }
      var key = String(pair[0].lowercased().map { $0 == "_" ? "-" : $0 })
      if key == "weekday-ordinal" { key = "ordinal" }
      guard seen.insert(key).inserted else { throw bad("\(key) is given twice; a trigger matches one value per component") }
      guard knownKeys.contains(key) else {
        throw bad("unknown component \"\(pair[0])\" (\(componentNames))")
      }
      previousKey = key
      let value = try number(pair[1], for: key)
      switch key {
      case "year": c.year = value
      case "month": c.month = value
      case "day": c.day = value
      case "hour": c.hour = value
      case "minute": c.minute = value
      case "second": c.second = value
      case "weekday": c.weekday = value
      case "ordinal": c.weekdayOrdinal = value
      case "week-of-month": c.weekOfMonth = value
      case "week-of-year": c.weekOfYear = value
      case "year-for-week-of-year": c.yearForWeekOfYear = value
      default: throw bad("unknown component \"\(pair[0])\" (\(componentNames))")
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

  private static let keys = ["year", "month", "day", "hour", "minute", "second", "weekday", "ordinal", "week-of-month",
                             "week-of-year", "year-for-week-of-year"]
  private static let knownKeys = Set(keys)
  private static var componentNames: String { keys.joined(separator: ", ") }

  private static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]
  private static let weekdayFullNames = ["sunday": 1, "monday": 2, "tuesday": 3, "wednesday": 4, "thursday": 5, "friday": 6,
                                         "saturday": 7]

  /// What `weekday=` accepts, for refusals.
  private static let weekdaysAccepted = "sun, mon, tue, wed, thu, fri or sat (or the full name, e.g. monday), or 1–7 (1 = Sunday)"

  /// The value of `key`, read whole: a decimal integer (with an optional sign), or for
  /// `weekday` a day's name.
  private static func number(_ raw: String, for key: String) throws(ChimeError) -> Int {
    if key == "weekday" {
      if let day = weekdays[raw.lowercased()] ?? weekdayFullNames[raw.lowercased()] { return day }
      if let n = Int(raw), (1...7).contains(n) { return n }
      if looksLikeListOrRange(raw) { throw bad("weekday=\(raw): \(listsNotSupported(key))") }
      throw bad("weekday=\(raw) is not a weekday: give \(weekdaysAccepted)")
    }
    if let n = Int(raw) { return n }
    if looksLikeListOrRange(raw) { throw bad("\(key)=\(raw): \(listsNotSupported(key))") }
    throw bad("\"\(raw)\" is not a number for \(key) (give one whole number, e.g. \(key)=\(example(key)))")
  }

  /// `mon-fri`, `2..6`, `mon;tue`, `mon wed`, `9/2`, `*`: text that asks for several values.
  private static func looksLikeListOrRange(_ raw: String) -> Bool {
    let body = raw.hasPrefix("-") || raw.hasPrefix("+") ? raw.dropFirst() : Substring(raw)
    return body.contains("..") || body.contains { "-;/ *|&".contains($0) }
  }

  private static func listsNotSupported(_ key: String) -> String {
    let one = key == "weekday" ? "give one weekday: \(weekdaysAccepted)" : "give one value, e.g. \(key)=\(example(key))"
    return "lists and ranges of values (such as weekday=mon-fri or weekday=mon,wed,fri) are not supported yet; "
      + "a trigger matches one value per component: \(one)"
  }

  private static func example(_ key: String) -> String {
    switch key {
    case "year": "2027"
    case "month": "3"
    case "ordinal": "-1"
    case "hour": "9"
    case "minute": "30"
    case "second": "0"
    default: "1"
    }
  }

  private static func bad(_ message: String) -> ChimeError {
    ChimeError(.invalidCalendarSpec, message, field: "calendar")
  }
}
