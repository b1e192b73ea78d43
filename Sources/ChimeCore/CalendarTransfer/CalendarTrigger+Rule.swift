extension CalendarTrigger {
  /// The RRULE that repeats as this calendar pattern does from an occurrence of it (the
  /// exported DTSTART, which supplies every part the rule leaves out), without COUNT or UNTIL;
  /// or why there is none.
  ///
  /// The frequency is the finest unit left free above the finest unit the pattern fixes
  /// (`hour=9` → DAILY, `weekday=mon,hour=9` → WEEKLY, `day=1` → MONTHLY, `month=12,day=25` →
  /// YEARLY, `minute=30` → HOURLY); every fixed unit becomes its BY part. RFC 5545 has no part
  /// for Chime's week-of-month and week-of-year patterns (their week numbering is Foundation's),
  /// nor for a fixed year in a repeating pattern; an ordinal weekday repeats only monthly or
  /// yearly there. Those have no rule. A free unit between fixed ones needs nothing more:
  /// `hour=9,second=30` is MINUTELY with BYHOUR=9 and BYSECOND=30, every minute of that hour.
  public func equivalentRule() -> Result<String, RuleGap> {
    let c = components
    if c.weekOfMonth != nil || c.weekOfYear != nil || c.yearForWeekOfYear != nil {
      return .failure(RuleGap("a week-of-month or week-of-year pattern has no RRULE equivalent"))
    }
    if c.year != nil { return .failure(RuleGap("a repeating pattern with a fixed year has no RRULE equivalent")) }
    let days = (c.weekdays ?? []) + (c.weekday.map { [$0] } ?? [])
    if c.weekdayOrdinal != nil && days.isEmpty {
      return .failure(RuleGap("an ordinal without a weekday has no RRULE equivalent"))
    }
    // Units from the coarsest: year, month, day, hour, minute, second.
    let fixed = [false, c.month != nil, c.day != nil || !days.isEmpty, c.hour != nil, c.minute != nil, c.second != nil]
    guard let finest = fixed.lastIndex(of: true) else { return .failure(RuleGap("a pattern that fixes nothing has no RRULE equivalent")) }
    guard let free = fixed[..<finest].lastIndex(of: false) else {
      return .failure(RuleGap("the pattern fixes every unit"))
    }
    var frequency = ["YEARLY", "MONTHLY", "DAILY", "HOURLY", "MINUTELY"][free]
    if free == 1, c.day == nil, c.weekdayOrdinal == nil, !days.isEmpty { frequency = "WEEKLY" }
    if c.weekdayOrdinal != nil, free > 1 {
      return .failure(RuleGap("an ordinal weekday repeats monthly or yearly in RFC 5545, not \(frequency.lowercased())"))
    }
    var parts = ["FREQ=" + frequency]
    if let month = c.month { parts.append("BYMONTH=\(month)") }
    if let day = c.day { parts.append("BYMONTHDAY=\(day)") }
    if !days.isEmpty {
      let codes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
      guard days.allSatisfy({ (1...7).contains($0) }) else { return .failure(RuleGap("a weekday outside 1...7")) }
      let ordinal = c.weekdayOrdinal.map(String.init) ?? ""
      parts.append("BYDAY=" + days.map { ordinal + codes[$0 - 1] }.joined(separator: ","))
    }
    if let hour = c.hour { parts.append("BYHOUR=\(hour)") }
    if let minute = c.minute { parts.append("BYMINUTE=\(minute)") }
    if let second = c.second { parts.append("BYSECOND=\(second)") }
    return .success(parts.joined(separator: ";"))
  }
}

/// Why a trigger has no RRULE: one sentence, shown as a note of the export.
public struct RuleGap: Error, Hashable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}
