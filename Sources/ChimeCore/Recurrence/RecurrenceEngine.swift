/// Computes when a recurrence (an RFC 5545 rule with a start, a zone and exclusions) fires.
/// Pure: the instant to start from and the floating zone are passed in.
///
/// ## Expansion (RFC 5545 section 3.3.10)
/// The rule makes occurrences period by period (every `INTERVAL`th day, week, month or year
/// from the one holding the start): each BY part narrows the period's days, the times of day
/// are every combination of BYHOUR, BYMINUTE and BYSECOND (the start's time when not given),
/// and BYSETPOS picks among the period's occurrences. Parts the rule leaves out come from the
/// start: a WEEKLY rule without BYDAY repeats on the start's weekday, a MONTHLY one without a
/// day part on the start's day of the month, a YEARLY one on the start's month and day. Dates
/// that do not exist (31 April, 29 February in other years) are not occurrences.
///
/// The start is the first wall time an occurrence may have; it fires only if the rule makes
/// it (as python-dateutil reads it; RFC 5545 leaves a start the rule does not make undefined).
/// COUNT counts the occurrences from the start on, before exclusions are removed (RFC 5545's
/// recurrence set). UNTIL ends the rule at the first occurrence past it.
///
/// ## Clock changes (RFC 5545 section 3.3.5)
/// A wall time in a gap is read with the offset before the gap: 02:30 on Europe/Berlin's
/// spring-forward night fires at 03:30 +02:00. A wall time that occurs twice fires at its first
/// occurrence. A day the zone skipped whole (Pacific/Apia, 2011-12-30) is read the same way:
/// its 09:00 fires at 09:00 on the next day. Two occurrences that land on one instant fire
/// once. This is what calendar programs show, and differs from the calendar trigger, which
/// follows cron at a gap (its `--dst-gap`).
///
/// ## Cost
/// No system call after the zone's table is built; periods before the one asked about are
/// skipped at once (or counted without converting instants when COUNT needs them), and a rule
/// that makes nothing for a whole 400-year calendar cycle is known never to fire.
public enum RecurrenceEngine {
  /// The next fire strictly after `after`, or nil when the rule has ended or never fires.
  ///
  /// - Parameter zone: the zone of a floating recurrence (one without `timeZone`).
  public static func nextFire(after: Instant, recurrence: Recurrence, zone: Zone) -> FireDate? {
    nextFires(after: after, count: 1, recurrence: recurrence, zone: zone).first
  }

  /// Up to `count` fires strictly after `after`, strictly increasing.
  public static func nextFires(after: Instant, count: Int, recurrence: Recurrence, zone: Zone) -> [FireDate] {
    guard count > 0, let walk = walk(for: recurrence, zone: zone) else { return [] }
    let seconds = CivilDate.floorDiv(after.unixMillis, 1000)
    return walk.next(after: seconds, limit: count).map { fireDate($0, walk.table) }
  }

  /// The first `count` occurrences from the start in wall-time order, exclusions removed,
  /// whether past or not, up to wall time `through`: what the rule makes, for checks and
  /// previews.
  public static func occurrences(count: Int, through: LocalDateTime? = nil, recurrence: Recurrence, zone: Zone) -> [Occurrence] {
    guard let walk = walk(for: recurrence, zone: zone) else { return [] }
    return walk.occurrences(limit: count, through: through?.wallSeconds ?? Int64.max).map { Occurrence(wall: LocalDateTime(wallSeconds: $0.wall), fire: fireDate($0, walk.table)) }
  }

  /// An occurrence: the wall time the rule made, and when it fires.
  public struct Occurrence: Hashable, Sendable {
    public var wall: LocalDateTime
    public var fire: FireDate
  }

  /// Checks a recurrence when it is added, and gives its first fire after `after`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_TIME_ZONE` for a zone the zoneinfo tree does not hold
  ///   (`field` + `.time_zone`), or `NOTIFICATION_INVALID_NO_DATE` (`field`) when the rule
  ///   never makes an occurrence (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`) or makes none after
  ///   `after` that an exclusion leaves.
  public static func firstFire(after: Instant, recurrence: Recurrence, zone: Zone, field: String) throws(ChimeError) -> FireDate {
    if let id = recurrence.timeZone, !id.isEmpty, id.utf8.count > 64 || Zone.named(id) == nil {
      throw ChimeError(.invalidTimeZone, "unknown time zone \"\(id.prefix(64))\"", field: "\(field).time_zone")
    }
    guard let walk = walk(for: recurrence, zone: zone) else {
      throw ChimeError(.invalidTimeZone, "no time zone for the recurrence", field: "\(field).time_zone")
    }
    if let fire = walk.next(after: CivilDate.floorDiv(after.unixMillis, 1000), limit: 1).first {
      return fireDate(fire, walk.table)
    }
    let firesAtAll = !walk.occurrences(limit: 1).isEmpty
    var makesAny = false
    walk.walk(skipThrough: Int64.min) { _, _ in
      makesAny = true
      return false
    }
    let why: String
    if !makesAny {
      why = "never makes an occurrence"
    } else if !firesAtAll {
      why = "makes only occurrences its exclusions remove"
    } else {
      why = "has no occurrence after \(after) (it ended)"
    }
    throw ChimeError(.notificationInvalidNoDate, "\(recurrence.rule.text) from \(recurrence.start) \(why)", field: field)
  }

  /// Checks a recurrence when it is added, without a clock: a zone Foundation knows, texts
  /// within their limits, and a rule that makes at least one occurrence an exclusion leaves.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_TIME_ZONE` (`field` + `.time_zone`),
  ///   `INVALID_RECURRENCE_RULE` for a rule over 1,000 bytes or over 1,000 exclusions, or
  ///   `NOTIFICATION_INVALID_NO_DATE` (`field`) for a rule that never fires.
  public static func validate(_ recurrence: Recurrence, field: String) throws(ChimeError) {
    if let id = recurrence.timeZone, !id.isEmpty, id.utf8.count > 64 || Zone.named(id) == nil {
      throw ChimeError(.invalidTimeZone, "unknown time zone \"\(id.prefix(64))\"", field: "\(field).time_zone")
    }
    guard recurrence.ruleText.utf8.count <= 1000 else {
      throw ChimeError(.invalidRecurrenceRule, "the rule is longer than 1,000 bytes", field: "\(field).rule")
    }
    guard recurrence.exclusions.count <= 1000 else {
      throw ChimeError(.invalidRecurrenceRule, "more than 1,000 exclusions", field: "\(field).exclusions")
    }
    // The texts are what is stored and shown; they must say what the parsed values do.
    let reread = try Recurrence(rule: recurrence.ruleText, start: recurrence.startText, timeZone: recurrence.timeZone,
                                exclusions: recurrence.exclusionTexts, field: field)
    guard reread.rule == recurrence.rule, reread.start == recurrence.start, reread.exclusions == recurrence.exclusions else {
      throw ChimeError(.invalidRecurrenceRule, "the rule, start or exclusions as given do not match their parsed values", field: field)
    }
    _ = try firstFire(after: Instant.distantPast, recurrence: recurrence, zone: .utc, field: field)
  }

  /// The identifier of the zone a recurrence fires in: its own, or `zone` for a floating one.
  public static func zoneIdentifier(of recurrence: Recurrence, floating zone: Zone) -> String {
    if let id = recurrence.timeZone, !id.isEmpty { return id }
    return zone.identifier
  }

  static func walk(for recurrence: Recurrence, zone: Zone) -> RecurrenceWalk? {
    let table: ZoneTable
    if let id = recurrence.timeZone, !id.isEmpty {
      guard let named = Zone.named(id)?.table else { return nil }
      table = named
    } else {
      table = zone.table
    }
    return RecurrenceWalk(recurrence, table: table)
  }

  static func fireDate(_ hit: RecurrenceWalk.Hit, _ table: ZoneTable) -> FireDate {
    let offset = table.offset(at: hit.instant)
    var note: String? = nil
    let wallDay = Int(CivilDate.floorDiv(hit.wall, CivilDate.secondsPerDay))
    let wallTime = WallTimeFormat.time(Int(hit.wall - Int64(wallDay) * CivilDate.secondsPerDay))
    switch hit.kind {
    case .plain:
      break
    case .gap:
      let local = hit.instant + Int64(offset)
      let localDay = Int(CivilDate.floorDiv(local, CivilDate.secondsPerDay))
      var at = WallTimeFormat.time(Int(local - Int64(localDay) * CivilDate.secondsPerDay))
      if localDay != wallDay { at = WallTimeFormat.date(localDay) + " " + at }
      note = "\(wallTime) does not exist on \(WallTimeFormat.date(wallDay)) (DST gap); "
        + "fires at \(at) \(WallTimeFormat.offset(offset)), read with the offset before the gap"
    case .firstOfTwo:
      note = "\(wallTime) occurs twice on \(WallTimeFormat.date(wallDay)) (DST overlap); fires once, at the first (\(WallTimeFormat.offset(offset)))"
    }
    return FireDate(instant: Instant(unixMillis: hit.instant * 1000), utcOffsetSeconds: offset,
                    zoneIdentifier: table.identifier, dstNote: note)
  }
}
