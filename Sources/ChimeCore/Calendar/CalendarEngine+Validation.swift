extension CalendarEngine {
  /// Checks a calendar trigger when it is added. `field` is the trigger's path, e.g.
  /// `request.trigger.calendar`.
  ///
  /// - Throws: INVALID_ARGUMENT with field `<field>.components.<name>` and reason
  ///   - `INVALID_DATE_COMPONENT` for a component out of range: year and year_for_week_of_year
  ///     1...9999, month 1...12, day 1...31, hour 0...23, minute 0...59, second 0...59,
  ///     weekday and each of weekdays 1...7 (not both given), weekday_ordinal 1...5 or -1, week_of_month 1...6, week_of_year 1...53;
  ///   - `INVALID_TIME_ZONE` for a zone name the zoneinfo tree does not hold (field `time_zone`);
  ///   - `NOTIFICATION_INVALID_NO_DATE` (field `<field>.components`) when no component is
  ///     given, when the combination can never match (30 February, day 31 with month 4, week 53
  ///     of a year with 52), or, if `now` is given, when nothing matches after `now` (a year in
  ///     the past). Without `now` the check uses no clock.
  /// - Parameter zone: the floating zone, used only with `now` for a trigger without a zone.
  public static func validate(_ trigger: CalendarTrigger, field: String, now: Instant? = nil, zone: Zone = .utc) throws(ChimeError) {
    let c = trigger.components
    let base = "\(field).components"
    try check(c.year, 1...9999, "year", base)
    try check(c.month, 1...12, "month", base)
    try check(c.day, 1...31, "day", base)
    try check(c.hour, 0...23, "hour", base)
    try check(c.minute, 0...59, "minute", base)
    try check(c.second, 0...59, "second", base)
    try check(c.weekday, 1...7, "weekday", base)
    for day in c.weekdays ?? [] { try check(day, 1...7, "weekdays", base) }
    if c.weekday != nil, let days = c.weekdays, !days.isEmpty {
      throw ChimeError(.invalidDateComponent, "give weekday (one day) or weekdays (several), not both", field: "\(base).weekdays")
    }
    if let ordinal = c.weekdayOrdinal, !(1...5).contains(ordinal), ordinal != -1 {
      throw ChimeError(.invalidDateComponent, "weekday_ordinal must be within 1...5, or -1 for the last (got \(ordinal))", field: "\(base).weekday_ordinal")
    }
    try check(c.weekOfMonth, 1...6, "week_of_month", base)
    try check(c.weekOfYear, 1...53, "week_of_year", base)
    try check(c.yearForWeekOfYear, 1...9999, "year_for_week_of_year", base)
    if let id = c.timeZone, !id.isEmpty {
      guard id.utf8.count <= 64, Zone.named(id) != nil else {
        throw ChimeError(.invalidTimeZone, "unknown time zone \"\(id.prefix(64))\"", field: "\(base).time_zone")
      }
    }
    guard let pattern = CalendarPattern(c) else {
      throw ChimeError(.notificationInvalidNoDate, "a calendar trigger needs at least one date component", field: base)
    }
    guard pattern.canMatch else {
      throw ChimeError(.notificationInvalidNoDate, "\(describe(c)) never matches a date", field: base)
    }
    if let now, nextFire(after: now, trigger: trigger, zone: zone) == nil {
      throw ChimeError(.notificationInvalidNoDate, "\(describe(c)) matches no date after \(now)", field: base)
    }
  }

  private static func check(_ value: Int?, _ range: ClosedRange<Int>, _ name: String, _ base: String) throws(ChimeError) {
    if let value, !range.contains(value) {
      throw ChimeError(.invalidDateComponent, "\(name) must be within \(range.lowerBound)...\(range.upperBound) (got \(value))", field: "\(base).\(name)")
    }
  }
}

extension CalendarPattern {
  /// Whether any date at all matches, regardless of the clock: a fixed year is searched whole
  /// (a fixed week-numbering year with its neighbours), anything else over one 400-year cycle.
  var canMatch: Bool {
    let from: Int
    let through: Int
    if let year {
      from = CivilDate.dayNumber(year: year, month: 1, day: 1)
      through = CivilDate.dayNumber(year: year, month: 12, day: 31)
    } else if let yearForWeekOfYear {
      from = CivilDate.dayNumber(year: max(1, yearForWeekOfYear - 1), month: 1, day: 1)
      through = CivilDate.dayNumber(year: yearForWeekOfYear + 1, month: 12, day: 31)
    } else {
      from = CivilDate.dayNumber(year: 2001, month: 1, day: 1)
      through = from + CivilDate.daysPerCycle - 1
    }
    return nextMatchingDay(from: from, through: through) != nil
  }
}
