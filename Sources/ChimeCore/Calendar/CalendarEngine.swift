/// Computes when calendar triggers fire (UNCalendarNotificationTrigger semantics). Pure: the
/// instant to start from and the floating zone are passed in.
///
/// ## Matching
/// A fire is the earliest instant strictly after the given one whose wall time in the
/// trigger's zone matches every component given. Components left out are free, except that
/// the units smaller than the smallest given unit are pinned to their minimum. Units, largest
/// first: year (`year`, `yearForWeekOfYear`), month, week (`weekOfYear`, `weekOfMonth`,
/// `weekdayOrdinal`), day (`day`, `weekday`), hour, minute, second.
/// - `hour=9` fires at 09:00:00 every day; `minute=30` at :30:00 every hour; `second=15` at
///   :15 every minute; `weekday=2` at 00:00:00 every Monday.
/// - `hour=9, second=30` leaves the minute free: 09:00:30, 09:01:30, ... 09:59:30.
/// - With no day and no time component, the day is pinned too: the trigger fires on the first
///   day of each run of matching days. `month=3` fires once a year, on 1 March at 00:00;
///   `weekOfYear=10` on the Monday of ISO week 10.
/// - `weekday`: 1 = Sunday ... 7 = Saturday. `weekdayOrdinal` n = the nth such weekday of the
///   month (days 7n-6...7n), -1 = the last one (the month's last 7 days); without a weekday it
///   names that block of 7 days.
/// - `weekdays`: several weekdays, any of which matches (`weekday=mon-fri`): a day unit like
///   `weekday`, so `weekdays=[2...6], hour=9` fires at 09:00 on each working day with the same
///   DST behaviour as a daily pattern. With `weekdayOrdinal` n: the days of the set in the
///   month's nth block of 7 days.
/// - Weeks: `weekOfYear` and `yearForWeekOfYear` are ISO 8601 weeks (they start on Monday;
///   week 1 holds the year's first Thursday; 52 or 53 weeks), as Foundation's
///   `Calendar(identifier: .iso8601)` counts them. `weekOfMonth` counts Monday-to-Sunday weeks
///   with week 1 holding the 1st (1...6, never 0), as a Gregorian calendar with
///   `firstWeekday = 2, minimumDaysInFirstWeek = 1` counts them. The week rules do not depend on
///   the user's locale; note that Apple's default US calendar starts weeks on Sunday.
/// - `day=31` without a month fires only in months that have a 31st (seven times a year), and
///   `month=2, day=29` only in leap years. This differs from Apple's `Calendar.nextDate` with
///   `.nextTime` (radar 32865247), which moves a missing day 31 to the 1st of the next month:
///   a notification asked for "the 31st" should not arrive on the 1st, and a repeating one
///   would otherwise fire twice a month apart on days nobody asked for.
///
/// ## Time zones
/// A trigger that names an IANA zone fires at fixed instants of that zone. A trigger with no
/// zone (nil or empty) is floating: it uses the `zone` passed in, which the daemon sets to
/// the zone it runs in now, so 08:00 stays 08:00 on the wall clock after the user moves.
///
/// ## Clock changes (DST and other offset changes)
/// The rule follows cron's long-standing behaviour (jobs at a fixed time are caught up once and
/// never doubled; jobs with a wildcard hour follow the new time).
/// - **A pattern that fixes the hour** (`hour` given, or pinned to 00 because a day-level or
///   larger unit is the smallest given: daily, weekly, monthly, yearly) follows the wall
///   clock, one fire per intended occurrence:
///   - a matching wall time skipped by a forward jump fires at the first instant after the
///     jump (`DSTGapPolicy.nextValid`, e.g. 02:30 on Europe/Berlin's spring day fires at
///     03:00:00 +02:00) or not at all (`.skip`); several skipped wall times share that one
///     instant and fire once;
///   - a matching wall time that occurs twice after a backward jump fires at its first
///     occurrence (`DSTOverlapPolicy.first`) or at both (`.both`).
/// - **A pattern that leaves the hour free** (`minute=30` hourly, `second=0` every minute)
///   follows real time: it fires at the instants whose wall time matches. A wall time in a gap
///   does not fire (`minute=30` in America/New_York on 2012-03-11 fires at 01:30 and 03:30), and
///   one that occurs twice fires at each occurrence (`minute=8` in Europe/London on 1995-10-22
///   fires at 01:08 +01:00, 01:08 +00:00 and 02:08). The trigger's DST policies do not apply.
/// - **A day that does not exist in the zone has no occurrences**: Pacific/Apia skipped
///   2011-12-30, so a daily 09:00 trigger fires on the 29th and the 31st, under either gap
///   policy.
/// - Successive fires are strictly increasing: a repeating trigger never fires twice for one
///   wall time (except under `.both`, or at a repeated wall time with the hour free), never
///   drops a day that exists, and never loops.
///
/// ## Cost
/// No Foundation call on the hot path: dates are computed on day numbers, months and years a
/// component rules out are skipped whole, and wall times are converted with a per-zone table
/// of offset changes read from the zone's TZif file once (on first use).
public enum CalendarEngine {
  /// The next fire strictly after `after`, or nil if the trigger never fires again (a past
  /// year, a zone the zoneinfo tree does not hold, every match in a skipped gap or on a skipped day,
  /// or no match before year 10000).
  ///
  /// - Parameter zone: the zone of a floating trigger (one without `timeZone`); ignored when
  ///   the trigger names its zone.
  public static func nextFire(after: Instant, trigger: CalendarTrigger, zone: Zone) -> FireDate? {
    guard let search = search(for: trigger, zone: zone),
          let found = search.next(after: CivilDate.floorDiv(after.unixMillis, 1000))
    else { return nil }
    return search.fireDate(found)
  }

  /// Up to `count` successive fires after `after`, strictly increasing (for previews such as
  /// `NextTriggerDates`). Fewer when the trigger runs out; a non-repeating trigger still lists
  /// the matches it could fire at, the first of which is the one it will.
  public static func nextFires(after: Instant, count: Int, trigger: CalendarTrigger, zone: Zone) -> [FireDate] {
    guard count > 0, let search = search(for: trigger, zone: zone) else { return [] }
    var result: [FireDate] = []
    result.reserveCapacity(min(count, 1000))
    var cursor = CivilDate.floorDiv(after.unixMillis, 1000)
    while result.count < count, let found = search.next(after: cursor) {
      result.append(search.fireDate(found))
      cursor = found.instant
    }
    return result
  }

  /// The first fire of a trigger added at `after`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_TIME_ZONE` for a zone the zoneinfo tree does not hold, or
  ///   `NOTIFICATION_INVALID_NO_DATE` when the trigger matches no date after `after` (a year in
  ///   the past, every match skipped by a DST gap under `.skip`, or every match on a day the
  ///   zone skipped), with `field` +
  ///   `.components` as the field path.
  public static func firstFire(after: Instant, trigger: CalendarTrigger, zone: Zone, field: String) throws(ChimeError) -> FireDate {
    if let id = trigger.components.timeZone, !id.isEmpty, Zone.named(id) == nil {
      throw ChimeError(.invalidTimeZone, "unknown time zone \"\(id)\"", field: "\(field).components.time_zone")
    }
    guard let fire = nextFire(after: after, trigger: trigger, zone: zone) else {
      throw ChimeError(.notificationInvalidNoDate,
        "\(describe(trigger.components)) matches no date after \(after)",
        field: "\(field).components")
    }
    return fire
  }

  /// The identifier of the zone a trigger fires in: its own, or `zone` for a floating one.
  public static func zoneIdentifier(of trigger: CalendarTrigger, floating zone: Zone) -> String {
    if let id = trigger.components.timeZone, !id.isEmpty { return id }
    return zone.identifier
  }

  static func search(for trigger: CalendarTrigger, zone: Zone) -> FireSearch? {
    guard let pattern = CalendarPattern(trigger.components) else { return nil }
    let table: ZoneTable
    if let id = trigger.components.timeZone, !id.isEmpty {
      guard let named = Zone.named(id)?.table else { return nil }
      table = named
    } else {
      table = zone.table
    }
    return FireSearch(pattern: pattern, table: table, gap: trigger.dstGap, overlap: trigger.dstOverlap)
  }

  /// `month 2, day 30` — the given components, for messages.
  static func describe(_ c: CalendarComponents) -> String {
    var parts: [String] = []
    func add(_ name: String, _ value: Int?) { if let value { parts.append("\(name) \(value)") } }
    add("year", c.year)
    add("month", c.month)
    add("day", c.day)
    add("hour", c.hour)
    add("minute", c.minute)
    add("second", c.second)
    add("weekday", c.weekday)
    if let days = c.weekdays, !days.isEmpty { parts.append("weekdays " + days.map(String.init).joined(separator: "+")) }
    add("weekday_ordinal", c.weekdayOrdinal)
    add("week_of_month", c.weekOfMonth)
    add("week_of_year", c.weekOfYear)
    add("year_for_week_of_year", c.yearForWeekOfYear)
    return parts.isEmpty ? "no date components" : parts.joined(separator: ", ")
  }
}
