/// What a pending request with a floating calendar trigger (no zone of its own) becomes when
/// the daemon's zone changes: 08:00 stays 08:00 on the new wall clock. Pure.
public enum FloatingReplan: Hashable, Sendable {
  /// The next fire is the same instant in the new zone.
  case unchanged
  /// The next fire moves to this instant.
  case move(to: Instant)
  /// The trigger matches no date after `now` in the new zone: the request ends.
  case remove

  /// Re-plans a request whose next fire is `current` for `zone`, from `now` on. A request
  /// whose trigger is not floating is `unchanged`.
  public static func decide(_ request: NotificationRequest, current: Instant, zone: Zone, now: Instant) -> FloatingReplan {
    guard request.trigger?.isFloating == true else { return .unchanged }
    let next: Instant?
    switch request.trigger {
    case .calendar(let trigger)?: next = CalendarEngine.nextFire(after: now, trigger: trigger, zone: zone)?.instant
    case .recurrence(let recurrence)?: next = RecurrenceEngine.nextFire(after: now, recurrence: recurrence, zone: zone)?.instant
    default: return .unchanged
    }
    guard let next else { return .remove }
    return next == current ? .unchanged : .move(to: next)
  }

  /// The note events carry for a re-plan into `zone`.
  public static func note(zone: Zone, removed: Bool) -> String {
    let note = "re-planned: the time zone is now \(zone.identifier)"
    return removed ? note + "; the trigger matches no later date" : note
  }
}

extension Trigger {
  /// A calendar trigger or recurrence rule with no zone of its own follows the daemon's zone.
  public var isFloating: Bool {
    switch self {
    case .calendar(let c): (c.components.timeZone ?? "").isEmpty
    case .recurrence(let r): (r.timeZone ?? "").isEmpty
    case .timeInterval: false
    }
  }
}
