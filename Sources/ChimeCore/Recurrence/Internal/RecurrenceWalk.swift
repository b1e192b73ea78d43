/// Walks a recurrence's occurrences in wall-time order, period by period, with the start, the
/// end (COUNT, UNTIL) and the exclusions applied, and maps each wall time to an instant by RFC
/// 5545's rule: a wall time in a gap uses the offset before the gap, one in an overlap its first
/// occurrence.
///
/// Work per walk is bounded: periods before the one of interest are skipped in O(1) (or counted
/// one by one, without resolving instants, when COUNT needs them), the occurrences of a period
/// that cannot matter are passed over by binary search, and a rule whose periods stop producing
/// occurrences is given up after one full calendar cycle (the Gregorian calendar repeats every
/// 400 years, so a rule that makes nothing for that long makes nothing ever).
struct RecurrenceWalk {
  enum Kind: Equatable {
    case plain
    /// The wall time fell in a gap; the instant uses the offset before the gap.
    case gap
    /// The wall time occurs twice; this is its first occurrence.
    case firstOfTwo
  }

  struct Hit: Equatable {
    /// UTC seconds.
    var instant: Int64
    /// Local wall seconds.
    var wall: Int64
    var kind: Kind
  }

  let rule: RecurrenceRule
  let days: RecurrenceDays
  let table: ZoneTable
  let startWall: Int64
  let startDay: Int
  let exclusions: Set<Int64>
  /// The zone's smallest and largest offsets: an instant lies within these of its wall time.
  let minOffset: Int64
  let maxOffset: Int64
  /// Periods after which the calendar repeats (146,097 days).
  let cyclePeriods: Int
  /// The Monday (or WKST day) of the week holding the start, for WEEKLY.
  let firstWeekStart: Int

  static let lastDay = CivilDate.dayNumber(year: 9999, month: 12, day: 31)

  init(_ recurrence: Recurrence, table: ZoneTable) {
    rule = recurrence.rule
    days = RecurrenceDays(rule: recurrence.rule, start: recurrence.start)
    self.table = table
    startWall = recurrence.start.wallSeconds
    startDay = recurrence.start.dayNumber
    exclusions = Set(recurrence.exclusions.map(\.wallSeconds))
    minOffset = Int64(table.offsets.min() ?? 0)
    maxOffset = Int64(table.offsets.max() ?? 0)
    switch rule.frequency {
    case .daily: cyclePeriods = CivilDate.daysPerCycle
    case .weekly: cyclePeriods = CivilDate.daysPerCycle / 7
    case .monthly: cyclePeriods = 4800
    case .yearly: cyclePeriods = 400
    }
    firstWeekStart = startDay - (CivilDate.isoWeekday(startDay) - 1 - rule.weekStart.rawValue + 7) % 7
  }

  /// The days of period `p` (0 = the one holding the start), or nil past year 9999.
  func period(_ p: Int) -> (first: Int, last: Int)? {
    let start = recurrenceStart
    switch rule.frequency {
    case .daily:
      let day = startDay + p * rule.interval
      return day <= Self.lastDay ? (day, day) : nil
    case .weekly:
      let first = firstWeekStart + 7 * rule.interval * p
      return first <= Self.lastDay ? (first, min(first + 6, Self.lastDay)) : nil
    case .monthly:
      let index = start.year * 12 + start.month - 1 + p * rule.interval
      let (y, m) = (index / 12, index % 12 + 1)
      guard y <= 9999 else { return nil }
      let first = CivilDate.dayNumber(year: y, month: m, day: 1)
      return (first, first + CivilDate.daysInMonth(year: y, month: m) - 1)
    case .yearly:
      let y = start.year + p * rule.interval
      guard y <= 9999 else { return nil }
      return (CivilDate.dayNumber(year: y, month: 1, day: 1), CivilDate.dayNumber(year: y, month: 12, day: 31))
    }
  }

  /// The period holding day `n` (negative before the start).
  func periodIndex(containing n: Int) -> Int {
    let start = recurrenceStart
    switch rule.frequency {
    case .daily:
      return CivilDate.floorDiv(n - startDay, rule.interval)
    case .weekly:
      return CivilDate.floorDiv(n - firstWeekStart, 7 * rule.interval)
    case .monthly:
      let (y, m, _) = CivilDate.civil(n)
      return CivilDate.floorDiv((y * 12 + m - 1) - (start.year * 12 + start.month - 1), rule.interval)
    case .yearly:
      return CivilDate.floorDiv(CivilDate.civil(n).year - start.year, rule.interval)
    }
  }

  private var recurrenceStart: LocalDateTime { LocalDateTime(wallSeconds: startWall) }

  func resolve(_ wall: Int64) -> Hit {
    switch table.resolve(wall: wall) {
    case .single(let t):
      return Hit(instant: t, wall: wall, kind: .plain)
    case .repeated(let first, _):
      return Hit(instant: first, wall: wall, kind: .firstOfTwo)
    case .skipped(let gapEnd):
      return Hit(instant: wall - Int64(table.offset(at: gapEnd - 1)), wall: wall, kind: .gap)
    }
  }

  /// Visits the occurrences whose wall time is above `skipThrough`, in wall-time order, until
  /// `visit` returns false or the rule ends. Occurrences at or below it are not visited, but
  /// still count towards COUNT. `visit` gets each occurrence and whether an exclusion removes it.
  func walk(skipThrough bound: Int64, _ visit: (Hit, Bool) -> Bool) {
    var remaining: Int? = nil
    if case .count(let n) = rule.end { remaining = n }
    // Walls up to here cannot end the rule by UNTIL.
    var untilSafe = Int64.max
    switch rule.end {
    case .untilLocal(let u): untilSafe = u.wallSeconds
    case .untilInstant(let u): untilSafe = CivilDate.floorDiv(u.unixMillis, 1000) + minOffset
    default: break
    }
    let skipBound = min(bound, untilSafe)
    var p = 0
    if remaining == nil, bound > startWall {
      p = max(0, periodIndex(containing: Int(CivilDate.floorDiv(bound, CivilDate.secondsPerDay))))
    }
    var idle = 0
    while let (first, last) = period(p) {
      let occurrences = days.period(first: first, last: last)
      var k = p == 0 ? occurrences.firstIndex(above: startWall - 1) : 0
      p += 1
      if k >= occurrences.count {
        idle += 1
        if idle > cyclePeriods + 1 { return }
        continue
      }
      idle = 0
      let skipTo = occurrences.firstIndex(above: skipBound)
      if skipTo > k {
        if let left = remaining {
          if skipTo - k >= left { return }
          remaining = left - (skipTo - k)
        }
        k = skipTo
      }
      while k < occurrences.count {
        let wall = occurrences.wall(k)
        k += 1
        if case .untilLocal(let u) = rule.end, wall > u.wallSeconds { return }
        let hit = resolve(wall)
        if case .untilInstant(let u) = rule.end, hit.instant * 1000 > u.unixMillis { return }
        if let left = remaining {
          if left == 0 { return }
          remaining = left - 1
        }
        if !visit(hit, exclusions.contains(wall)) { return }
      }
    }
  }

  /// Up to `limit` fires strictly after UTC second `after`, earliest first. Two occurrences at
  /// one instant (a wall time in a gap and the one after the gap it maps to) fire once.
  func next(after: Int64, limit: Int) -> [Hit] {
    guard limit > 0 else { return [] }
    var hits: [Hit] = []
    // A wall time at or below after + minOffset has its instant at or before `after`.
    let (sum, overflow) = after.addingReportingOverflow(minOffset)
    let bound = overflow ? (minOffset > 0 ? Int64.max : Int64.min) : sum
    walk(skipThrough: bound) { hit, excluded in
      // No later wall time can map before the latest hit kept: every instant is within
      // maxOffset of its wall time.
      if hits.count == limit, hit.wall - maxOffset >= hits[limit - 1].instant { return false }
      guard !excluded, hit.instant > after else { return true }
      var index = hits.count
      while index > 0 && hits[index - 1].instant > hit.instant { index -= 1 }
      if index > 0 && hits[index - 1].instant == hit.instant { return true }
      hits.insert(hit, at: index)
      if hits.count > limit { hits.removeLast() }
      return true
    }
    return hits
  }

  /// The first `limit` occurrences from the start, in wall-time order, exclusions removed,
  /// up to wall time `through`.
  func occurrences(limit: Int, through: Int64 = Int64.max) -> [Hit] {
    var hits: [Hit] = []
    guard limit > 0 else { return hits }
    walk(skipThrough: Int64.min) { hit, excluded in
      if hit.wall > through { return false }
      if !excluded { hits.append(hit) }
      return hits.count < limit
    }
    return hits
  }
}
