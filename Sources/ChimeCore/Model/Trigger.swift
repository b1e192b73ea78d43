/// Fires after a number of seconds (UNTimeIntervalNotificationTrigger).
public struct TimeIntervalTrigger: Hashable, Sendable {
  public var seconds: Double
  public var repeats: Bool
  /// When a repeating trigger stops; nil: never.
  public var end: RepeatEnd?

  public init(seconds: Double, repeats: Bool = false, end: RepeatEnd? = nil) {
    self.seconds = seconds
    self.repeats = repeats
    self.end = end
  }
}

/// The end of a repeating interval or calendar trigger (`--until`, `--count`): it fires at most
/// `count` times and not after `until`; after its last fire the request leaves the pending list.
public struct RepeatEnd: Hashable, Sendable {
  public var until: Instant?
  /// 1 or more; nil for no limit.
  public var count: Int?

  public init(until: Instant? = nil, count: Int? = nil) {
    self.until = until
    self.count = count
  }

  /// Whether a fire at `next`, which would be fire number `number` (1 = the first), is within the end.
  public func allows(_ next: Instant, number: UInt64) -> Bool {
    if let until, next > until { return false }
    if let count, number > UInt64(max(count, 0)) { return false }
    return true
  }
}

/// Date components to match; nil components are free (UNCalendarNotificationTrigger).
public struct CalendarComponents: Hashable, Sendable {
  public var year: Int?
  public var month: Int?
  public var day: Int?
  public var hour: Int?
  public var minute: Int?
  public var second: Int?
  /// 1 = Sunday ... 7 = Saturday.
  public var weekday: Int?
  /// Several weekdays (1 = Sunday ... 7 = Saturday), any of which matches: `weekday=mon-fri`.
  /// nil (or empty) for none; one day goes in `weekday`, and the two are never both set.
  public var weekdays: [Int]?
  /// 1...5 = nth weekday of the month; -1 = last.
  public var weekdayOrdinal: Int?
  public var weekOfMonth: Int?
  public var weekOfYear: Int?
  public var yearForWeekOfYear: Int?
  /// IANA name; nil means floating (follows the daemon's current zone).
  public var timeZone: String?

  public init() {}
}

/// What a pattern that fixes the hour (given, or 00 under a day-level component) does with a
/// wall time a spring-forward gap skips. Patterns that leave the hour free follow real time and
/// ignore it: a wall time in a gap does not fire.
public enum DSTGapPolicy: Int, Hashable, Sendable {
  /// A wall time skipped by a spring-forward gap fires at the first instant after the gap.
  case nextValid = 1
  case skip = 2
}

/// What a pattern that fixes the hour does with a wall time that occurs twice. Patterns that
/// leave the hour free ignore it: they fire at each occurrence.
public enum DSTOverlapPolicy: Int, Hashable, Sendable {
  /// A wall time that occurs twice fires once, at the first occurrence.
  case first = 1
  case both = 2
}

public struct CalendarTrigger: Hashable, Sendable {
  public var components: CalendarComponents
  public var repeats: Bool
  public var dstGap: DSTGapPolicy
  public var dstOverlap: DSTOverlapPolicy
  /// When a repeating trigger stops; nil: never.
  public var end: RepeatEnd?

  public init(components: CalendarComponents, repeats: Bool = false, dstGap: DSTGapPolicy = .nextValid, dstOverlap: DSTOverlapPolicy = .first,
              end: RepeatEnd? = nil) {
    self.components = components
    self.repeats = repeats
    self.dstGap = dstGap
    self.dstOverlap = dstOverlap
    self.end = end
  }
}

/// When a request fires. A request without a trigger is delivered at once.
public enum Trigger: Hashable, Sendable {
  case timeInterval(TimeIntervalTrigger)
  case calendar(CalendarTrigger)
  /// An RFC 5545 recurrence rule; it repeats until its COUNT or UNTIL ends it.
  case recurrence(Recurrence)

  public var repeats: Bool {
    switch self {
    case .timeInterval(let t): t.repeats
    case .calendar(let c): c.repeats
    case .recurrence: true
    }
  }

  var isCalendar: Bool {
    if case .calendar = self { return true }
    return false
  }

  /// The end of a repeating interval or calendar trigger (a recurrence ends by its rule).
  public var repeatEnd: RepeatEnd? {
    switch self {
    case .timeInterval(let t): t.end
    case .calendar(let c): c.end
    case .recurrence: nil
    }
  }
}

/// What to do with a fire that was due while the daemon was down or the machine slept.
public struct MissedFirePolicy: Hashable, Sendable {
  public enum Action: Int, Hashable, Sendable {
    /// Deliver once, marked missed with the intended instant.
    case deliver = 1
    case skip = 2
    case deliverIfLateByLessThan = 3
  }

  public var action: Action
  /// For `.deliverIfLateByLessThan`.
  public var maxLatenessSeconds: Double

  public init(action: Action = .deliver, maxLatenessSeconds: Double = 0) {
    self.action = action
    self.maxLatenessSeconds = maxLatenessSeconds
  }

  public static let deliver = MissedFirePolicy()
}
