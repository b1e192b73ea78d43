/// An RFC 5545 recurrence rule (RRULE, section 3.3.10), as `RecurrenceRule.parse` reads it from
/// text such as `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`.
///
/// Frequencies DAILY, WEEKLY, MONTHLY and YEARLY; HOURLY and finer are refused (an interval
/// trigger repeats by real time, which is what they mean). The parts that RFC 5545 forbids for
/// a frequency (BYWEEKNO other than YEARLY, BYYEARDAY with DAILY/WEEKLY/MONTHLY, BYMONTHDAY with
/// WEEKLY, BYDAY ordinals other than MONTHLY/YEARLY or with BYWEEKNO) are refused, so every
/// accepted rule has one meaning.
public struct RecurrenceRule: Hashable, Sendable {
  public enum Frequency: String, Hashable, Sendable, CaseIterable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  /// RFC 5545's weekday codes, in RFC order (MO first). `rawValue` 0 = Monday ... 6 = Sunday.
  public enum Weekday: Int, Hashable, Sendable, CaseIterable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `MO`, `TU`, ...
    public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

    public init?(code: String) {
      guard let index = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].firstIndex(of: code.uppercased()) else { return nil }
      self.init(rawValue: index)
    }

    /// The weekday of a day number (days since 1970-01-01, a Thursday).
    init(dayNumber n: Int) {
      self.init(rawValue: CivilDate.isoWeekday(n) - 1)!
    }
  }

  /// A `BYDAY` entry: a weekday, with an ordinal (`2TU`: the second Tuesday; `-1FR`: the last
  /// Friday) or without (every such weekday of the period).
  public struct WeekdayNum: Hashable, Sendable, CustomStringConvertible {
    public var weekday: Weekday
    /// nil for every such weekday; otherwise ±1...53.
    public var ordinal: Int?

    public init(_ weekday: Weekday, ordinal: Int? = nil) {
      self.weekday = weekday
      self.ordinal = ordinal
    }

    public var description: String { (ordinal.map(String.init) ?? "") + weekday.code }
  }

  /// How the rule ends.
  public enum End: Hashable, Sendable {
    /// After this many occurrences (counted before exclusions are removed).
    case count(Int)
    /// The last occurrence is at or before this instant (`UNTIL=20271231T230000Z`).
    case untilInstant(Instant)
    /// The last occurrence is at or before this wall time in the rule's zone
    /// (`UNTIL=20271231T230000`, RFC 5545's form for a floating start).
    case untilLocal(LocalDateTime)
  }

  public var frequency: Frequency
  /// Every `interval`th period (1...9999).
  public var interval: Int = 1
  public var byDay: [WeekdayNum] = []
  /// ±1...31; negative counts from the month's end (-1 = the last day).
  public var byMonthDay: [Int] = []
  public var byMonth: [Int] = []
  /// ±1...366; negative counts from the year's end.
  public var byYearDay: [Int] = []
  /// ±1...53, weeks numbered as RFC 5545 says (starting on `weekStart`; week 1 has at least
  /// four days of the year).
  public var byWeekNo: [Int] = []
  public var byHour: [Int] = []
  public var byMinute: [Int] = []
  public var bySecond: [Int] = []
  /// ±1...366: which of each period's occurrences are kept (1 = the first, -1 = the last).
  public var bySetPos: [Int] = []
  /// The day weeks start on (`WKST`); Monday by default, as in RFC 5545.
  public var weekStart: Weekday = .monday
  public var end: End?

  public init(frequency: Frequency) {
    self.frequency = frequency
  }
}
