/// Computes fire instants for triggers. Pure: "now" is passed in.
public enum TriggerPlanner {
  /// The first instant a request added at `added` fires; `added` itself for no trigger.
  ///
  /// - Parameter zone: the zone floating calendar triggers (no `timeZone`) follow; the daemon
  ///   passes the zone it runs in now.
  /// - Throws: for a calendar trigger or a recurrence rule, INVALID_ARGUMENT
  ///   `NOTIFICATION_INVALID_NO_DATE` when it matches nothing after `added` (e.g. a year in the
  ///   past, a rule that ended) or `INVALID_TIME_ZONE`, with a `request.trigger.calendar...` or
  ///   `request.trigger.recurrence...` field path.
  public static func firstFire(of trigger: Trigger?, added: Instant, zone: Zone = .utc) throws(ChimeError) -> Instant {
    let first = try unendedFirstFire(of: trigger, added: added, zone: zone)
    if let until = trigger?.repeatEnd?.until, first > until {
      throw ChimeError(.notificationInvalidNoDate, "the first fire, \(first), is after the trigger's end (until \(until))",
                       field: "request.trigger.end.until")
    }
    return first
  }

  private static func unendedFirstFire(of trigger: Trigger?, added: Instant, zone: Zone) throws(ChimeError) -> Instant {
    switch trigger {
    case nil:
      return added
    case .timeInterval(let t)?:
      return added.adding(seconds: t.seconds)
    case .calendar(let c)?:
      return try CalendarEngine.firstFire(after: added, trigger: c, zone: zone, field: "request.trigger.calendar").instant
    case .recurrence(let r)?:
      return try RecurrenceEngine.firstFire(after: added, recurrence: r, zone: zone, field: "request.trigger.recurrence").instant
    }
  }

  /// After a fire that was due at `due`, the next instant strictly after `now` (and after
  /// `due`), or nil when the trigger does not repeat. A repeating trigger that missed several
  /// occurrences is advanced past them, not replayed. A calendar trigger that will not match
  /// again (a fixed year that has passed) answers nil.
  ///
  /// - Parameter zone: the zone floating calendar triggers follow.
  /// - Parameter fired: how many times the request has fired, this fire included: a trigger
  ///   with an end (`RepeatEnd`) stops after its `count`th fire and at its `until`.
  public static func nextFire(of trigger: Trigger?, due: Instant, now: Instant, zone: Zone = .utc, fired: UInt64 = 1) -> Instant? {
    guard let trigger, trigger.repeats, let next = unendedNextFire(of: trigger, due: due, now: now, zone: zone) else { return nil }
    if let end = trigger.repeatEnd, !end.allows(next, number: fired + 1) { return nil }
    return next
  }

  private static func unendedNextFire(of trigger: Trigger, due: Instant, now: Instant, zone: Zone) -> Instant? {
    switch trigger {
    case .timeInterval(let t):
      let step = max(Int64((t.seconds * 1000).rounded()), 1)
      let floor = max(now, due)
      // Smallest k >= 1 with due + k*step > floor.
      let behind = floor.millis(since: due)
      let k = behind / step + 1
      return due.adding(millis: k * step)
    case .calendar(let c):
      return CalendarEngine.nextFire(after: max(due, now), trigger: c, zone: zone)?.instant
    case .recurrence(let r):
      // Ends after the rule's last occurrence (COUNT or UNTIL).
      return RecurrenceEngine.nextFire(after: max(due, now), recurrence: r, zone: zone)?.instant
    }
  }
}
