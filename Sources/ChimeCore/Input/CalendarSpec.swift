/// Parses the CLI's calendar component text: `weekday=2,hour=9,minute=30`, with weekday names
/// (`weekday=mon` or `weekday=monday`) and `ordinal`/`weekday-ordinal` (`-1` = last).
///
/// Each value is read whole or refused: `weekday=monxyz` is not Monday. `weekday` alone takes
/// several days, written as everywhere else (`WeekdaySetText`): a range (`weekday=mon-fri`;
/// `fri-mon` wraps over the weekend) and a list joined with `+` (`weekday=mon+wed+fri`,
/// `weekday=mon-wed+sat`), the form written back. A comma also joins days when what follows it
/// is no component (`weekday=mon,wed,hour=9`: `wed` has no `=`, so it can only be a day).
/// Other components take one value.
public enum CalendarSpec {
  /// - Throws: INVALID_ARGUMENT `INVALID_CALENDAR_SPEC` naming the bad part and what is accepted.
  public static func parse(_ text: String, timeZone: String? = nil) throws(ChimeError) -> CalendarComponents {
    var c = CalendarComponents()
    c.timeZone = timeZone
    var parts: [String] = []
    for part in text.split(separator: ",").map({ $0.trimmingWhitespace() }) where !part.isEmpty {
      // A piece without `=` right after weekday's is one more of its days.
      if !part.contains("="), let last = parts.last, weekdayKey(last) {
        parts[parts.count - 1] = last + "," + part
      } else {
        parts.append(part)
      }
    }
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
      let value = key == "weekday" ? 0 : try number(pair[1], for: key)
      switch key {
      case "year": c.year = value
      case "month": c.month = value
      case "day": c.day = value
      case "hour": c.hour = value
      case "minute": c.minute = value
      case "second": c.second = value
      case "weekday":
        let days = try weekdaySet(pair[1])
        if days.count == 1 { c.weekday = days[0] } else { c.weekdays = days }
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

  /// Weekdays as `parse` reads them: `mon`, `mon-fri` (a run of three or more), `mon+wed+fri`.
  public static func weekdaysText(_ days: [Int]) -> String {
    WeekdaySetText.text(days.filter { (1...7).contains($0) })
  }

  /// The components as `parse` reads them back (`weekday=mon,hour=9,minute=30`), zone aside.
  public static func format(_ c: CalendarComponents) -> String {
    let parts: [(String, Int?)] = [("year", c.year), ("month", c.month), ("day", c.day), ("weekday", c.weekday),
                                   ("ordinal", c.weekdayOrdinal), ("week-of-month", c.weekOfMonth), ("week-of-year", c.weekOfYear),
                                   ("year-for-week-of-year", c.yearForWeekOfYear),
                                   ("hour", c.hour), ("minute", c.minute), ("second", c.second)]
    return parts.compactMap { name, value in
      if name == "weekday", let days = c.weekdays, !days.isEmpty { return "weekday=" + weekdaysText(days) }
      guard let value else { return nil }
      if name == "weekday", let day = weekdayName(value) { return "weekday=\(day)" }
      return "\(name)=\(value)"
    }.joined(separator: ",")
  }

  /// True for the shape `chime add --at` stores: every component from year to second, in UTC,
  /// and nothing else — one instant.
  public static func isInstant(_ c: CalendarComponents) -> Bool {
    c.year != nil && c.month != nil && c.day != nil && c.hour != nil && c.minute != nil && c.second != nil
      && c.weekday == nil && (c.weekdays ?? []).isEmpty && c.weekdayOrdinal == nil && c.weekOfMonth == nil && c.weekOfYear == nil
      && c.yearForWeekOfYear == nil && (c.timeZone == "UTC" || c.timeZone == "Etc/UTC" || c.timeZone == "GMT")
  }

  /// The components of the second `unixSeconds` (since the Unix epoch) in UTC, year to second:
  /// one instant as a calendar pattern.
  public static func instant(unixSeconds seconds: Int64) -> CalendarComponents {
    let day = CivilDate.floorDiv(seconds, CivilDate.secondsPerDay)
    let civil = CivilDate.civil(Int(day))
    let time = Int(seconds - day * CivilDate.secondsPerDay)
    var c = CalendarComponents()
    c.year = civil.year
    c.month = civil.month
    c.day = civil.day
    c.hour = time / 3600
    c.minute = time / 60 % 60
    c.second = time % 60
    c.timeZone = "UTC"
    return c
  }

  private static let keys = ["year", "month", "day", "hour", "minute", "second", "weekday", "ordinal", "week-of-month",
                             "week-of-year", "year-for-week-of-year"]
  private static let knownKeys = Set(keys)
  private static var componentNames: String { keys.joined(separator: ", ") }

  private static let weekdays = ["sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7]

  /// True for a `weekday=...` piece.
  private static func weekdayKey(_ part: String) -> Bool {
    let key = part.split(separator: "=", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    return key == "weekday"
  }

  /// `mon`, `2`, `mon-fri`, `fri-mon`, `mon+wed+fri`, `mon,wed`: the days, 1 = Sunday ... 7 =
  /// Saturday, in week order from Sunday, each once.
  private static func weekdaySet(_ raw: String) throws(ChimeError) -> [Int] {
    do {
      return try WeekdaySetText.parse(raw, numbers: true)
    } catch {
      throw bad("weekday=\(raw): \(error.message) (or 1–7, 1 = Sunday)")
    }
  }

  /// The value of `key`, read whole: a decimal integer (with an optional sign).
  private static func number(_ raw: String, for key: String) throws(ChimeError) -> Int {
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
    return "lists and ranges are taken only by weekday (weekday=mon-fri, weekday=mon+wed+fri); "
      + "\(key) takes one value, e.g. \(key)=\(example(key))"
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
