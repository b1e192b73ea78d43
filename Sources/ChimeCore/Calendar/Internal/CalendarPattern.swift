/// `CalendarComponents` compiled for matching: which local dates match, and which times of day.
///
/// The rules (documented for users on `CalendarEngine`):
/// - A given component must equal the local date's value; a missing one is free, except that
///   the units smaller than the smallest given unit are pinned to their minimum. Units from
///   largest to smallest: year (year, yearForWeekOfYear), month, week (weekOfYear,
///   weekOfMonth, weekdayOrdinal), day (day, weekday), hour, minute, second.
/// - Pinned time units are 0. A pinned day (no day, weekday or time component given) is the
///   first day of each run of consecutive matching days: `month=3` fires on 1 March only.
struct CalendarPattern: Hashable, Sendable {
  var year: Int?
  var month: Int?
  var day: Int?
  var weekday: Int?
  /// Several weekdays: bit `w` set for weekday `w` (1 = Sunday ... 7 = Saturday); 0 for none.
  var weekdayMask: UInt8
  var weekdayOrdinal: Int?
  var weekOfMonth: Int?
  var weekOfYear: Int?
  var yearForWeekOfYear: Int?
  /// nil = free; a pinned unit holds 0.
  var hour: Int?
  var minute: Int?
  var second: Int?
  /// Only the first day of each run of consecutive matching days matches.
  var firstDayOfRunOnly: Bool
  /// No date component at all: every day matches.
  var everyDay: Bool

  /// nil when no component is given or one is out of range (see `CalendarEngine.validate`):
  /// unvalidated input never fires rather than matching something nobody asked for.
  init?(_ c: CalendarComponents) {
    func within(_ value: Int?, _ range: ClosedRange<Int>) -> Bool { value.map(range.contains) ?? true }
    guard within(c.year, 1...9999), within(c.month, 1...12), within(c.day, 1...31),
          within(c.hour, 0...23), within(c.minute, 0...59), within(c.second, 0...59),
          within(c.weekday, 1...7), within(c.weekOfMonth, 1...6), within(c.weekOfYear, 1...53),
          within(c.yearForWeekOfYear, 1...9999), c.weekdayOrdinal.map({ (1...5).contains($0) || $0 == -1 }) ?? true,
          (c.weekdays ?? []).allSatisfy({ (1...7).contains($0) }), c.weekday == nil || (c.weekdays ?? []).isEmpty
    else { return nil }
    year = c.year
    month = c.month
    day = c.day
    var mask: UInt8 = 0
    for w in c.weekdays ?? [] { mask |= 1 << UInt8(w) }
    if mask.nonzeroBitCount == 1 {
      // One day in the list is that day, with its exact arithmetic.
      weekday = mask.trailingZeroBitCount
      weekdayMask = 0
    } else {
      weekday = c.weekday
      weekdayMask = mask
    }
    weekdayOrdinal = c.weekdayOrdinal
    weekOfMonth = c.weekOfMonth
    weekOfYear = c.weekOfYear
    yearForWeekOfYear = c.yearForWeekOfYear
    let hasDayUnit = c.day != nil || c.weekday != nil || mask != 0
    let hasLargerDateUnit = c.year != nil || c.month != nil || c.weekOfYear != nil || c.weekOfMonth != nil
      || c.weekdayOrdinal != nil || c.yearForWeekOfYear != nil
    everyDay = !hasDayUnit && !hasLargerDateUnit
    if let s = c.second {
      hour = c.hour
      minute = c.minute
      second = s
    } else if let m = c.minute {
      hour = c.hour
      minute = m
      second = 0
    } else if let h = c.hour {
      hour = h
      minute = 0
      second = 0
    } else if hasDayUnit || hasLargerDateUnit {
      hour = 0
      minute = 0
      second = 0
    } else {
      return nil
    }
    firstDayOfRunOnly = !hasDayUnit && hasLargerDateUnit && c.hour == nil && c.minute == nil && c.second == nil
  }

  /// The hour is left free (`minute=30` hourly, `second=0` every minute): the pattern follows
  /// real time at clock changes rather than the wall clock (see `FireSearch`). A pattern whose
  /// smallest given unit is a day or larger has its hour pinned to 0: it fixes the hour.
  var followsRealTime: Bool { hour == nil }

  // MARK: Dates

  /// Whether day `n` satisfies every given date component (ignoring the first-day-of-run rule).
  func matchesDateComponents(_ n: Int) -> Bool {
    if everyDay { return true }
    let (y, m, d) = CivilDate.civil(n)
    if let year, year != y { return false }
    if let month, month != m { return false }
    if let day, day != d { return false }
    if let weekday, weekday != CivilDate.weekday(n) { return false }
    if weekdayMask != 0, weekdayMask & (1 << UInt8(CivilDate.weekday(n))) == 0 { return false }
    if let weekdayOrdinal {
      if weekdayOrdinal > 0 {
        if (d - 1) / 7 + 1 != weekdayOrdinal { return false }
      } else if d + 7 <= CivilDate.daysInMonth(year: y, month: m) {
        return false
      }
    }
    if let weekOfMonth, weekOfMonth != CivilDate.weekOfMonth(day: d, firstOfMonth: n - d + 1) { return false }
    if weekOfYear != nil || yearForWeekOfYear != nil {
      let (wy, w) = CivilDate.isoWeek(n)
      if let weekOfYear, weekOfYear != w { return false }
      if let yearForWeekOfYear, yearForWeekOfYear != wy { return false }
    }
    return true
  }

  /// Whether day `n` is a matching day (all rules).
  func matchesDate(_ n: Int) -> Bool {
    guard matchesDateComponents(n) else { return false }
    return !firstDayOfRunOnly || !matchesDateComponents(n - 1)
  }

  /// The first matching day in `from...through`, or nil.
  ///
  /// Walks years and months, skipping those a component rules out (a fixed year or month, a
  /// day past the month's end, Feb 29 outside leap years), and inside a month intersects the
  /// day ranges the components allow, so the cost does not grow with the days skipped.
  func nextMatchingDay(from: Int, through: Int) -> Int? {
    guard from <= through else { return nil }
    if everyDay { return from }
    guard let weekOfYear else { return walkMonths(from: from, through: through) }
    // Jump from one week `weekOfYear` to the next (years without a week 53 are passed over),
    // and look only inside it.
    var weekYear = CivilDate.isoWeek(from).yearForWeekOfYear
    if let yearForWeekOfYear {
      if weekYear > yearForWeekOfYear { return nil }
      weekYear = yearForWeekOfYear
    }
    var start = CivilDate.isoYearStart(weekYear)
    while start <= through {
      let next = CivilDate.isoYearStart(weekYear + 1)
      if weekOfYear <= (next - start) / 7 {
        let first = start + 7 * (weekOfYear - 1)
        let last = min(first + 6, through)
        if last >= from, let found = walkMonths(from: max(first, from), through: last) {
          return found
        }
      }
      if yearForWeekOfYear != nil { return nil }
      weekYear += 1
      start = next
    }
    return nil
  }

  private func walkMonths(from: Int, through: Int) -> Int? {
    var (y, m, d) = CivilDate.civil(from)
    var minDay = d
    let lastYear = CivilDate.civil(through).year
    while y <= lastYear {
      if let year {
        if y < year { y = year; m = 1; minDay = 1; continue }
        if y > year { return nil }
      }
      if let yearForWeekOfYear {
        if y < yearForWeekOfYear - 1 { y = yearForWeekOfYear - 1; m = 1; minDay = 1; continue }
        if y > yearForWeekOfYear + 1 { return nil }
      }
      if let month {
        if m <= month {
          if m < month { m = month; minDay = 1 }
          if let found = matchInMonth(year: y, month: m, minDay: minDay) {
            return found <= through ? found : nil
          }
        }
      } else {
        while m <= 12 {
          if let found = matchInMonth(year: y, month: m, minDay: minDay) {
            return found <= through ? found : nil
          }
          m += 1
          minDay = 1
        }
      }
      y += 1
      m = 1
      minDay = 1
    }
    return nil
  }

  /// The first matching day of month `year-month` on or after day-of-month `minDay`.
  private func matchInMonth(year y: Int, month m: Int, minDay: Int) -> Int? {
    let dim = CivilDate.daysInMonth(year: y, month: m)
    var lo = 1
    var hi = dim
    if let day {
      if day > dim { return nil }
      lo = day
      hi = day
    }
    if weekday == nil, let ordinal = weekdayOrdinal {
      // Without a weekday, the ordinal names a 7-day block: days 1-7, 8-14, ..., or the last 7.
      if ordinal > 0 {
        lo = max(lo, 7 * (ordinal - 1) + 1)
        hi = min(hi, 7 * ordinal)
      } else {
        lo = max(lo, dim - 6)
      }
    }
    let first = CivilDate.dayNumber(year: y, month: m, day: 1)
    if let weekOfMonth {
      let lead = CivilDate.isoWeekday(first) - 1
      lo = max(lo, 7 * (weekOfMonth - 1) + 1 - lead)
      hi = min(hi, 7 * weekOfMonth - lead)
    }
    if lo > hi { return nil }
    if weekOfYear != nil || yearForWeekOfYear != nil {
      // At most one week-numbering year can put week `weekOfYear` (or itself) in this month.
      var found = false
      let candidates = yearForWeekOfYear.map { $0...$0 } ?? (y - 1)...(y + 1)
      for weekYear in candidates {
        let start = CivilDate.isoYearStart(weekYear)
        let a: Int
        let b: Int
        if let weekOfYear {
          let nextStart = CivilDate.isoYearStart(weekYear + 1)
          if weekOfYear > (nextStart - start) / 7 { continue }
          a = start + 7 * (weekOfYear - 1)
          b = a + 6
        } else {
          a = start
          b = CivilDate.isoYearStart(weekYear + 1) - 1
        }
        let rangeLo = max(lo, a - first + 1)
        let rangeHi = min(hi, b - first + 1)
        if rangeLo <= rangeHi {
          lo = rangeLo
          hi = rangeHi
          found = true
          break
        }
      }
      if !found { return nil }
    }
    if weekdayMask != 0 {
      // The first day from the start on whose weekday is in the set: one of the next seven.
      let start = max(lo, minDay)
      var d = start
      while d <= min(hi, start + 6) {
        if weekdayMask & (1 << UInt8(CivilDate.weekday(first + d - 1))) != 0 { return first + d - 1 }
        d += 1
      }
      return nil
    }
    if let weekday {
      let firstWeekday = CivilDate.weekday(first)
      if let ordinal = weekdayOrdinal {
        let firstMatch = 1 + (weekday - firstWeekday + 7) % 7
        let target = ordinal > 0 ? firstMatch + 7 * (ordinal - 1) : firstMatch + 7 * ((dim - firstMatch) / 7)
        guard target >= max(lo, minDay), target <= hi else { return nil }
        return first + target - 1
      }
      let start = max(lo, minDay)
      let startWeekday = (firstWeekday - 1 + start - 1) % 7 + 1
      let target = start + (weekday - startWeekday + 7) % 7
      return target <= hi ? first + target - 1 : nil
    }
    if firstDayOfRunOnly {
      // The matching days of the month are lo...hi; only lo can start a run.
      guard lo >= minDay else { return nil }
      if lo == 1 && matchesDateComponents(first - 1) { return nil }
      return first + lo - 1
    }
    let start = max(lo, minDay)
    return start <= hi ? first + start - 1 : nil
  }

  // MARK: Times of day

  /// The first matching second of the day at or after `secondOfDay` (0...86399), or nil.
  func nextTime(from secondOfDay: Int) -> Int? {
    var h = secondOfDay / 3600
    var m = (secondOfDay / 60) % 60
    var s = secondOfDay % 60
    while h < 24 {
      if let hour {
        if h > hour { return nil }
        if h < hour { h = hour; m = 0; s = 0 }
      }
      if let minute {
        if m > minute { h += 1; m = 0; s = 0; continue }
        if m < minute { m = minute; s = 0 }
      }
      if let second {
        if s > second {
          m += 1
          s = 0
          if m > 59 { h += 1; m = 0 }
          continue
        }
        s = second
      }
      return h * 3600 + m * 60 + s
    }
    return nil
  }
}
