/// What the user changes in the Do Not Disturb setting (`SetDoNotDisturb`, `chime dnd`): a
/// part left nil is unchanged.
public struct DoNotDisturbChange: Hashable, Sendable {
  public enum Manual: Hashable, Sendable {
    /// On by hand, until switched off (nil) or until an instant.
    case on(until: Instant?)
    case off
  }

  public enum Schedule: Hashable, Sendable {
    case set(DoNotDisturbSchedule)
    case clear
  }

  public var manual: Manual?
  public var schedule: Schedule?
  /// Whether the desktop's own Do Not Disturb counts (nil: unchanged).
  public var followDesktop: Bool?
  /// Whether a summary popup is shown when Do Not Disturb ends (nil: unchanged).
  public var summary: Bool?

  public init(manual: Manual? = nil, schedule: Schedule? = nil, followDesktop: Bool? = nil, summary: Bool? = nil) {
    self.manual = manual
    self.schedule = schedule
    self.followDesktop = followDesktop
    self.summary = summary
  }

  /// Nothing to change.
  public var isEmpty: Bool { manual == nil && schedule == nil && followDesktop == nil && summary == nil }

  /// - Throws: INVALID_ARGUMENT `DND_UNTIL_IN_PAST` for an until at or before `now`;
  ///   `INVALID_DND_SCHEDULE` or `INVALID_DND_DAYS` for a schedule that does not validate.
  public func validate(now: Instant) throws(ChimeError) {
    if case .on(let until?) = manual, until <= now {
      throw ChimeError(.dndUntilInPast, "Do Not Disturb cannot be on until \(until), which has passed (now: \(now))",
                       field: "manual_until_unix_ms")
    }
    if case .set(let schedule) = schedule { try schedule.validate(field: "schedule") }
  }

  /// `setting` with the change made.
  public func applied(to setting: DoNotDisturb) -> DoNotDisturb {
    var result = setting
    switch manual {
    case .on(let until): result.manual = .init(until: until)
    case .off: result.manual = nil
    case nil: break
    }
    switch schedule {
    case .set(let new): result.schedule = new
    case .clear: result.schedule = nil
    case nil: break
    }
    if let followDesktop { result.followDesktop = followDesktop }
    if let summary { result.summary = summary }
    return result
  }
}

/// The Do Not Disturb setting and the state it gives at one instant (`GetDoNotDisturb`).
public struct DoNotDisturbReport: Hashable, Sendable {
  public var setting: DoNotDisturb
  public var status: DoNotDisturbStatus
  /// The zone the schedule's times were read in.
  public var timeZone: String

  public init(setting: DoNotDisturb, status: DoNotDisturbStatus, timeZone: String) {
    self.setting = setting
    self.status = status
    self.timeZone = timeZone
  }
}
