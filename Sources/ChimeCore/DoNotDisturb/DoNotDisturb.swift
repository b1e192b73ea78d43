/// The user's Do Not Disturb setting: switched on by hand (until switched off, or until an
/// instant), a schedule of nightly (or daily) windows, whether the desktop's own Do Not Disturb
/// (a paused or inhibited notification server) counts, and whether a summary is shown when it
/// ends. Pure: `status(at:zone:desktop:)` answers from the instant, the floating zone and the
/// desktop's state passed in.
///
/// Any source on makes it on: switched on by hand, it is on whatever the schedule says;
/// switched off, the schedule and the desktop still apply (clear the schedule, or stop
/// following the desktop, to stop them). A manual `until` in the past counts as off.
///
/// When several sources apply, the status names the first in the order manual, schedule,
/// desktop: the user's explicit choice first, then the ones whose end Chime knows (the desktop
/// says nothing of when it will resume).
public struct DoNotDisturb: Hashable, Sendable {
  /// On by hand (nil: off).
  public var manual: Manual?
  /// The scheduled windows (nil: none).
  public var schedule: DoNotDisturbSchedule?
  /// Whether a paused or inhibited notification server counts as Do Not Disturb on.
  public var followDesktop: Bool
  /// Whether a summary popup says what arrived quietly when Do Not Disturb ends.
  public var summary: Bool

  /// Switched on by hand, until switched off (`until` nil) or until an instant.
  public struct Manual: Hashable, Sendable {
    public var until: Instant?
    public init(until: Instant? = nil) { self.until = until }
  }

  public init(manual: Manual? = nil, schedule: DoNotDisturbSchedule? = nil, followDesktop: Bool = true, summary: Bool = true) {
    self.manual = manual
    self.schedule = schedule
    self.followDesktop = followDesktop
    self.summary = summary
  }

  /// Off, with no schedule; following the desktop, with a summary.
  public static let off = DoNotDisturb()

  /// Whether Do Not Disturb is on at `instant`, from which source, and when that changes. The
  /// schedule's wall times are read in `zone` (floating: the zone the daemon runs in now);
  /// `desktop` is the notification server's own state (nil: not paused), counted only while
  /// the setting follows the desktop.
  public func status(at instant: Instant, zone: Zone, desktop: DesktopQuiet? = nil) -> DoNotDisturbStatus {
    let followed = followDesktop ? desktop : nil
    let table = zone.table
    if let manual, manual.until.map({ instant < $0 }) ?? true {
      return DoNotDisturbStatus(active: true, source: .manual, until: manual.until, nextStart: nil, desktop: followed)
    }
    let window = schedule.flatMap { $0.window(containing: instant, table: table) }
    if let window {
      return DoNotDisturbStatus(active: true, source: .schedule, until: window.end, nextStart: nil, desktop: followed)
    }
    let next = schedule.flatMap { $0.nextStart(after: instant, table: table) }
    if followed != nil {
      return DoNotDisturbStatus(active: true, source: .desktop, until: nil, nextStart: next, desktop: followed)
    }
    return DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: next)
  }

  /// Whether Do Not Disturb is on at `instant` and from which source (nil when off).
  public func isActive(at instant: Instant, zone: Zone, desktop: DesktopQuiet? = nil) -> DoNotDisturbSource? {
    status(at: instant, zone: zone, desktop: desktop).source
  }

  /// The next instant after `instant` at which the manual or scheduled part may turn on or off
  /// (a manual `until`, a window's end or the next window's start), or nil when none will by
  /// itself: when to look again to notice Do Not Disturb ending.
  public func nextChange(after instant: Instant, zone: Zone) -> Instant? {
    let table = zone.table
    var candidates: [Instant] = []
    if let until = manual?.until, instant < until { candidates.append(until) }
    if let schedule {
      if let window = schedule.window(containing: instant, table: table) { candidates.append(window.end) }
      if let next = schedule.nextStart(after: instant, table: table) { candidates.append(next) }
    }
    return candidates.min()
  }

  /// The setting as of `instant`: a manual `until` that has passed is dropped.
  public func expired(at instant: Instant) -> DoNotDisturb {
    var copy = self
    if let until = manual?.until, until <= instant { copy.manual = nil }
    return copy
  }
}

/// Where Do Not Disturb comes from when it is on.
public enum DoNotDisturbSource: String, Hashable, Sendable, CaseIterable {
  /// Switched on by hand (`chime dnd on`).
  case manual
  /// A window of the schedule (`chime dnd schedule`).
  case schedule
  /// The notification server is paused or inhibited (`DoNotDisturbStatus.desktop` says which).
  case desktop
}

/// Do Not Disturb at one instant.
public struct DoNotDisturbStatus: Hashable, Sendable {
  public var active: Bool
  /// Nil when off.
  public var source: DoNotDisturbSource?
  /// When on: the instant the source ends (nil: on until switched off). A schedule window that
  /// is followed by manual or scheduled time does not count that time.
  public var until: Instant?
  /// When off (or on from the desktop alone): the next scheduled start (nil: none scheduled).
  public var nextStart: Instant?
  /// The desktop's own Do Not Disturb as followed (nil: not paused, or not followed), also when
  /// another source is the one named.
  public var desktop: DesktopQuiet?

  public init(active: Bool, source: DoNotDisturbSource?, until: Instant?, nextStart: Instant?, desktop: DesktopQuiet? = nil) {
    self.active = active
    self.source = source
    self.until = until
    self.nextStart = nextStart
    self.desktop = desktop
  }

  /// Off.
  public static let inactive = DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: nil)
}
