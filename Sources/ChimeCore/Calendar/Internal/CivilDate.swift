/// Proleptic Gregorian date arithmetic on day numbers (days since 1970-01-01), with no
/// Foundation calls: the calendar engine's fast path is built on these.
///
/// Weeks follow the engine's documented rules (see `CalendarEngine`): weekdays are numbered
/// 1 = Sunday ... 7 = Saturday as in `DateComponents`; weeks of the year are ISO 8601 weeks;
/// weeks of the month start on Monday and week 1 holds the 1st.
enum CivilDate {
  static let secondsPerDay: Int64 = 86_400
  /// Days in 400 Gregorian years; a multiple of 7, so weekdays repeat with the same period.
  static let daysPerCycle = 146_097

  /// Floor division (rounds towards negative infinity).
  @inline(__always)
  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  @inline(__always)
  static func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  @inline(__always)
  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  @inline(__always)
  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The day number of `year-month-day` (month 1...12, day 1...31; not checked).
  ///
  /// Counts in 400-year eras of years that start on 1 March, so that the leap day is the last
  /// day of its year and month lengths follow a fixed pattern from March on.
  static func dayNumber(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = floorDiv(y, 400)
    let yearOfEra = y - era * 400                               // 0...399
    let marchMonth = month > 2 ? month - 3 : month + 9          // March = 0 ... February = 11
    let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1        // 0...365
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * daysPerCycle + dayOfEra - 719_468              // 719468: 0000-03-01 to 1970-01-01
  }

  /// The civil date of a day number: the inverse of `dayNumber(year:month:day:)`.
  static func civil(_ n: Int) -> (year: Int, month: Int, day: Int) {
    let z = n + 719_468
    let era = floorDiv(z, daysPerCycle)
    let dayOfEra = z - era * daysPerCycle                       // 0...146096
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let marchMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
    let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  /// 1 = Sunday ... 7 = Saturday (1970-01-01 was a Thursday).
  @inline(__always)
  static func weekday(_ n: Int) -> Int {
    let r = (n + 4) % 7
    return (r < 0 ? r + 7 : r) + 1
  }

  /// ISO numbering: 1 = Monday ... 7 = Sunday.
  @inline(__always)
  static func isoWeekday(_ n: Int) -> Int {
    let r = (n + 3) % 7
    return (r < 0 ? r + 7 : r) + 1
  }

  /// Day number of the Monday that starts ISO week 1 of ISO year `year` (the week holding
  /// 4 January, i.e. the year's first Thursday).
  static func isoYearStart(_ year: Int) -> Int {
    let jan4 = dayNumber(year: year, month: 1, day: 4)
    return jan4 - (isoWeekday(jan4) - 1)
  }

  /// 52 or 53.
  static func isoWeeksInYear(_ year: Int) -> Int {
    (isoYearStart(year + 1) - isoYearStart(year)) / 7
  }

  /// The ISO 8601 week-numbering year and week (1...53) of a day.
  static func isoWeek(_ n: Int) -> (yearForWeekOfYear: Int, weekOfYear: Int) {
    let year = civil(n).year
    var weekYear = year
    var start = isoYearStart(year)
    if n < start {
      weekYear = year - 1
      start = isoYearStart(weekYear)
    } else {
      let next = isoYearStart(year + 1)
      if n >= next {
        weekYear = year + 1
        start = next
      }
    }
    return (weekYear, (n - start) / 7 + 1)
  }

  /// Week of the month (1...6): weeks start on Monday and week 1 holds the 1st.
  @inline(__always)
  static func weekOfMonth(day: Int, firstOfMonth: Int) -> Int {
    (day - 1 + isoWeekday(firstOfMonth) - 1) / 7 + 1
  }
}
