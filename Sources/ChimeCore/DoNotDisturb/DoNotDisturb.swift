/// The user's Do Not Disturb setting: switched on by hand (until switched off, or until an
/// instant), and a schedule of nightly (or daily) windows. Pure: `status(at:zone:)` answers from
/// the instant and the floating zone passed in.
///
/// Switched on by hand, it is on whatever the schedule says; switched off, the schedule still
/// applies (clear the schedule to stop it). A manual `until` in the past counts as off.
public struct DoNotDisturb: Hashable, Sendable, Codable {
  /// On by hand (nil: off).
  public var manual: Manual?
  /// The scheduled windows (nil: none).
  public var schedule: DoNotDisturbSchedule?

  /// Switched on by hand, until switched off (`until` nil) or until an instant.
  public struct Manual: Hashable, Sendable, Codable {
    public var until: Instant?
    public init(until: Instant? = nil) { self.until = until }
  }

  public init(manual: Manual? = nil, schedule: DoNotDisturbSchedule? = nil) {
    self.manual = manual
    self.schedule = schedule
  }

  /// Off, with no schedule.
  public static let off = DoNotDisturb()

  /// Whether Do Not Disturb is on at `instant`, from which source, and when that changes. The
  /// schedule's wall times are read in `zone` (floating: the zone the daemon runs in now).
  public func status(at instant: Instant, zone: Zone) -> DoNotDisturbStatus {
    let table = zone.table
    if let manual, manual.until.map({ instant < $0 }) ?? true {
      return DoNotDisturbStatus(active: true, source: .manual, until: manual.until,
                                nextStart: nil)
    }
    guard let schedule else { return DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: nil) }
    if let window = schedule.window(containing: instant, table: table) {
      return DoNotDisturbStatus(active: true, source: .schedule, until: window.end, nextStart: nil)
    }
    return DoNotDisturbStatus(active: false, source: nil, until: nil,
                              nextStart: schedule.nextStart(after: instant, table: table))
  }

  /// Whether Do Not Disturb is on at `instant` and from which source (nil when off).
  public func isActive(at instant: Instant, zone: Zone) -> DoNotDisturbSource? {
    status(at: instant, zone: zone).source
  }

  /// The setting as of `instant`: a manual `until` that has passed is dropped.
  public func expired(at instant: Instant) -> DoNotDisturb {
    var copy = self
    if let until = manual?.until, until <= instant { copy.manual = nil }
    return copy
  }
}

/// Where Do Not Disturb comes from when it is on.
public enum DoNotDisturbSource: String, Hashable, Sendable, Codable, CaseIterable {
  /// Switched on by hand (`chime dnd on`).
  case manual
  /// A window of the schedule (`chime dnd schedule`).
  case schedule
}

/// Do Not Disturb at one instant.
public struct DoNotDisturbStatus: Hashable, Sendable {
  public var active: Bool
  /// Nil when off.
  public var source: DoNotDisturbSource?
  /// When on: the instant the source ends (nil: on until switched off). A schedule window that
  /// is followed by manual or scheduled time does not count that time.
  public var until: Instant?
  /// When off: the next scheduled start (nil: none scheduled).
  public var nextStart: Instant?

  public init(active: Bool, source: DoNotDisturbSource?, until: Instant?, nextStart: Instant?) {
    self.active = active
    self.source = source
    self.until = until
    self.nextStart = nextStart
  }

  /// Off.
  public static let inactive = DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: nil)
}
