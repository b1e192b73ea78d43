/// Fires after a number of seconds (UNTimeIntervalNotificationTrigger).
public struct TimeIntervalTrigger: Hashable, Sendable, Codable {
  public var seconds: Double
  public var repeats: Bool

  public init(seconds: Double, repeats: Bool = false) {
    self.seconds = seconds
    self.repeats = repeats
  }
}

/// Date components to match; nil components are free (UNCalendarNotificationTrigger).
public struct CalendarComponents: Hashable, Sendable, Codable {
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
public enum DSTGapPolicy: Int, Hashable, Sendable, Codable {
  /// A wall time skipped by a spring-forward gap fires at the first instant after the gap.
  case nextValid = 1
  case skip = 2
}

/// What a pattern that fixes the hour does with a wall time that occurs twice. Patterns that
/// leave the hour free ignore it: they fire at each occurrence.
public enum DSTOverlapPolicy: Int, Hashable, Sendable, Codable {
  /// A wall time that occurs twice fires once, at the first occurrence.
  case first = 1
  case both = 2
}

public struct CalendarTrigger: Hashable, Sendable, Codable {
  public var components: CalendarComponents
  public var repeats: Bool
  public var dstGap: DSTGapPolicy
  public var dstOverlap: DSTOverlapPolicy

  public init(components: CalendarComponents, repeats: Bool = false, dstGap: DSTGapPolicy = .nextValid, dstOverlap: DSTOverlapPolicy = .first) {
    self.components = components
    self.repeats = repeats
    self.dstGap = dstGap
    self.dstOverlap = dstOverlap
  }
}

/// When a request fires. A request without a trigger is delivered at once.
public enum Trigger: Hashable, Sendable, Codable {
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
}

/// What to do with a fire that was due while the daemon was down or the machine slept.
public struct MissedFirePolicy: Hashable, Sendable, Codable {
  public enum Action: Int, Hashable, Sendable, Codable {
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
