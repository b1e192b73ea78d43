extension TriggerPlanner {
  /// The next `count` fires of `trigger` strictly after `after`, as the daemon would schedule
  /// them: for a one-shot trigger at most one; for a time interval, every `seconds` from
  /// `after`; for a calendar trigger or a recurrence rule, the engine's matches with their DST
  /// notes; no more than a repeating trigger's end (`RepeatEnd`) allows, counted from the
  /// first.
  ///
  /// - Throws: INVALID_ARGUMENT for an invalid trigger (with a `trigger...` field path) or a
  ///   count outside 1...1000 (`INVALID_COUNT`).
  public static func preview(_ trigger: Trigger, after: Instant, count: Int, zone: Zone = .utc) throws(ChimeError) -> [FireDate] {
    guard count >= 1, count <= 1000 else {
      throw ChimeError(.invalidCount, "count must be within 1...1000 (got \(count))", field: "count")
    }
    try RequestValidator.validate(trigger, field: "trigger")
    switch trigger {
    case .timeInterval(let t):
      let n = t.repeats ? count : 1
      return within(t.end, (1...n).map { k in
        let instant = after.adding(seconds: t.seconds * Double(k))
        return FireDate(instant: instant, utcOffsetSeconds: zone.secondsFromUTC(at: instant), zoneIdentifier: zone.identifier)
      })
    case .calendar(let c):
      // Validates against `after` too (a year in the past matches nothing).
      _ = try CalendarEngine.firstFire(after: after, trigger: c, zone: zone, field: "trigger.calendar")
      return within(c.end, CalendarEngine.nextFires(after: after, count: c.repeats ? count : 1, trigger: c, zone: zone))
    case .recurrence(let r):
      _ = try RecurrenceEngine.firstFire(after: after, recurrence: r, zone: zone, field: "trigger.recurrence")
      return RecurrenceEngine.nextFires(after: after, count: count, recurrence: r, zone: zone)
    }
  }

  /// The fires a repeating trigger's end allows, counted from the first previewed (as if the
  /// request were added at `after`).
  private static func within(_ end: RepeatEnd?, _ fires: [FireDate]) -> [FireDate] {
    guard let end else { return fires }
    return fires.enumerated().prefix { end.allows($0.element.instant, number: UInt64($0.offset + 1)) }.map(\.element)
  }
}
