/// The day and time parts of a rule, with RFC 5545's defaults from the start filled in, compiled
/// to answer "which days of this period, at which times of day".
///
/// Every BY part narrows the days of the period (all days of the year, month, week or the one
/// day): a day is kept when it satisfies each part given. BYDAY keeps a day that is one of its
/// plain weekdays or the nth of its numbered ones (nth in the month for MONTHLY, and for YEARLY
/// with BYMONTH; in the year for YEARLY without). The times of day are every combination of
/// BYHOUR, BYMINUTE and BYSECOND. BYSETPOS then picks among each period's occurrences in order.
struct RecurrenceDays: Sendable {
  let frequency: RecurrenceRule.Frequency
  /// Index 1...12; empty array when free.
  let months: [Bool]
  /// Day of month, positive 1...31 or negative -31...-1.
  let monthDays: Set<Int>
  let yearDays: Set<Int>
  let weekNumbers: Set<Int>
  /// Index 0 = Monday; empty array when BYDAY has no plain weekday.
  let plainWeekdays: [Bool]
  /// (weekday index 0 = Monday, ordinal).
  let numberedWeekdays: [(Int, Int)]
  let hasByDay: Bool
  /// Seconds of the day, increasing.
  let times: [Int]
  let setPositions: [Int]
  /// Index 0 = Monday.
  let weekStart: Int
  /// Numbered weekdays count within the month (else within the year).
  let ordinalsInMonth: Bool

  init(rule: RecurrenceRule, start: LocalDateTime) {
    frequency = rule.frequency
    weekStart = rule.weekStart.rawValue
    var byMonth = rule.byMonth
    var byMonthDay = rule.byMonthDay
    var byDay = rule.byDay
    if rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
      switch rule.frequency {
      case .yearly:
        if byMonth.isEmpty { byMonth = [start.month] }
        byMonthDay = [start.day]
      case .monthly:
        byMonthDay = [start.day]
      case .weekly:
        byDay = [.init(RecurrenceRule.Weekday(dayNumber: start.dayNumber))]
      case .daily:
        break
      }
    }
    var months = byMonth.isEmpty ? [] : [Bool](repeating: false, count: 13)
    for m in byMonth { months[m] = true }
    self.months = months
    monthDays = Set(byMonthDay)
    yearDays = Set(rule.byYearDay)
    weekNumbers = Set(rule.byWeekNo)
    var plain = [Bool](repeating: false, count: 7)
    var numbered: [(Int, Int)] = []
    for entry in byDay {
      if let n = entry.ordinal { numbered.append((entry.weekday.rawValue, n)) } else { plain[entry.weekday.rawValue] = true }
    }
    plainWeekdays = plain.contains(true) ? plain : []
    numberedWeekdays = numbered
    hasByDay = !byDay.isEmpty
    ordinalsInMonth = rule.frequency == .monthly || !byMonth.isEmpty
    let hours = rule.byHour.isEmpty ? [start.hour] : rule.byHour
    let minutes = rule.byMinute.isEmpty ? [start.minute] : rule.byMinute
    let seconds = rule.bySecond.isEmpty ? [start.second] : rule.bySecond
    var times: [Int] = []
    times.reserveCapacity(hours.count * minutes.count * seconds.count)
    for h in hours { for m in minutes { for s in seconds { times.append(h * 3600 + m * 60 + s) } } }
    self.times = Array(Set(times)).sorted()
    setPositions = rule.bySetPos
  }

  /// Whether day `n` (in calendar date `y-m-d`) passes every day part.
  func keeps(_ n: Int, _ y: Int, _ m: Int, _ d: Int) -> Bool {
    if !months.isEmpty && !months[m] { return false }
    if !monthDays.isEmpty {
      let dim = CivilDate.daysInMonth(year: y, month: m)
      if !monthDays.contains(d) && !monthDays.contains(d - dim - 1) { return false }
    }
    if !yearDays.isEmpty {
      let doy = n - CivilDate.dayNumber(year: y, month: 1, day: 1) + 1
      let len = CivilDate.isLeap(y) ? 366 : 365
      if !yearDays.contains(doy) && !yearDays.contains(doy - len - 1) { return false }
    }
    if !weekNumbers.isEmpty {
      let (week, weeks) = weekNumber(n, y)
      if !weekNumbers.contains(week) && !weekNumbers.contains(week - weeks - 1) { return false }
    }
    if hasByDay {
      let weekday = CivilDate.isoWeekday(n) - 1
      var ok = !plainWeekdays.isEmpty && plainWeekdays[weekday]
      if !ok && !numberedWeekdays.isEmpty {
        let first: Int
        let last: Int
        if ordinalsInMonth {
          first = n - d + 1
          last = first + CivilDate.daysInMonth(year: y, month: m) - 1
        } else {
          first = CivilDate.dayNumber(year: y, month: 1, day: 1)
          last = CivilDate.dayNumber(year: y, month: 12, day: 31)
        }
        let fromStart = (n - first) / 7 + 1
        let fromEnd = -((last - n) / 7 + 1)
        for (wd, ordinal) in numberedWeekdays where wd == weekday && (ordinal == fromStart || ordinal == fromEnd) {
          ok = true
          break
        }
      }
      if !ok { return false }
    }
    return true
  }

  /// The first day of week 1 of year `y`: weeks start on `weekStart`, and week 1 is the first
  /// with at least four days in the year (RFC 5545 BYWEEKNO, ISO 8601 when weeks start Monday).
  func weekOneStart(_ y: Int) -> Int {
    let jan1 = CivilDate.dayNumber(year: y, month: 1, day: 1)
    let intoWeek = (CivilDate.isoWeekday(jan1) - 1 - weekStart + 7) % 7
    return intoWeek <= 3 ? jan1 - intoWeek : jan1 - intoWeek + 7
  }

  /// Day `n`'s week number (1...53) in its week-numbering year, and how many weeks that year has.
  func weekNumber(_ n: Int, _ y: Int) -> (week: Int, weeks: Int) {
    var year = y
    var start = weekOneStart(y)
    if n < start {
      year = y - 1
      start = weekOneStart(year)
    } else {
      let next = weekOneStart(y + 1)
      if n >= next {
        year = y + 1
        start = next
      }
    }
    return ((n - start) / 7 + 1, (weekOneStart(year + 1) - start) / 7)
  }

  /// The occurrences of the period of days `first...last`, before the start and the end are
  /// applied: the kept days at each time, then BYSETPOS. Not materialized: a period may hold
  /// 366 days × 86,400 times.
  func period(first: Int, last: Int) -> RecurrencePeriod {
    var days: [Int] = []
    var (y, m, d) = CivilDate.civil(first)
    var n = first
    while n <= last {
      if keeps(n, y, m, d) { days.append(n) }
      n += 1
      d += 1
      if d > CivilDate.daysInMonth(year: y, month: m) {
        d = 1
        m += 1
        if m > 12 { m = 1; y += 1 }
      }
    }
    guard !days.isEmpty, !setPositions.isEmpty else { return RecurrencePeriod(days: days, times: times, picks: nil) }
    let total = days.count * times.count
    var picked: Set<Int> = []
    for pos in setPositions {
      let index = pos > 0 ? pos - 1 : total + pos
      if index >= 0 && index < total { picked.insert(index) }
    }
    return RecurrencePeriod(days: days, times: times, picks: picked.sorted())
  }
}

/// One period's occurrences in increasing wall-time order, read by index.
struct RecurrencePeriod {
  let days: [Int]
  let times: [Int]
  /// With BYSETPOS: the indices (into days × times) kept, increasing.
  let picks: [Int]?

  var count: Int { picks?.count ?? days.count * times.count }

  /// Local wall seconds of occurrence `k` (0 ..< count).
  func wall(_ k: Int) -> Int64 {
    let index = picks?[k] ?? k
    return Int64(days[index / times.count]) * CivilDate.secondsPerDay + Int64(times[index % times.count])
  }

  /// The first index whose wall time is above `bound` (`count` when none is).
  func firstIndex(above bound: Int64) -> Int {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo + hi) / 2
      if wall(mid) <= bound { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
