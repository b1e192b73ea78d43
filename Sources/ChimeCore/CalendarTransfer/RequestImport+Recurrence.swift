extension RequestImport {
  /// Most alarm instants compared when checking a rule trigger against the planner.
  static let checkedInstants = 50

  /// An RFC 5545 rule trigger for one alarm (and repeat) of a recurring master component: its
  /// RRULE from its DTSTART moved by the alarm's offset (EXDATEs and UNTIL moved alike), in its
  /// zone (an IANA name, a TZID that names one or a VTIMEZONE matched to one; floating and
  /// all-day times float). Nil when the component is not one RRULE without RDATE or overrides,
  /// the alarm is not relative to the start, the offset has days in it, the rule is not one
  /// Chime's engine takes (HOURLY and finer), or the rule's fires differ from `expected`, the
  /// planner's instants for
  /// `[now, until)`: moving a wall time is not moving an instant across a clock change, and a
  /// moved day may fall out of a BYDAY; the planner is the reference, the rule only its short
  /// form.
  static func recurringTrigger(_ component: CalendarComponent, _ alarm: CalendarAlarm, repeatIndex: Int, expected: [Instant],
                               item: CalendarItem, now: Instant, until: Instant, zones: CalendarZones) -> Recurrence? {
    guard component.recurrenceID == nil, component.rules.count == 1, component.recurrenceDates.isEmpty,
          let start = component.start, case .relative(let offset, toEnd: false) = alarm.trigger, offset.days == 0 else { return nil }
    var seconds = offset.seconds
    if repeatIndex > 0 {
      guard let step = alarm.repeatInterval, step.days == 0 else { return nil }
      seconds += step.seconds * repeatIndex
    }
    let zone: String?
    switch start.form {
    case .utc: zone = "UTC"
    case .floating, .date: zone = nil
    case .zoned(let tzid):
      switch zones.zone(for: tzid, in: item).source {
      case .iana(let name), .windows(let name), .matched(let name): zone = name
      case .definition, .unknown: return nil
      }
    }
    guard component.exceptionDates.allSatisfy({ $0.form == start.form }) else { return nil }
    guard var rule = try? RecurrenceRule.parse(component.rules[0], field: "rrule") else { return nil }
    func moved(_ wall: LocalDateTime) -> LocalDateTime { LocalDateTime(wallSeconds: wall.wallSeconds + Int64(seconds)) }
    switch rule.end {
    case .untilInstant(let instant)?: rule.end = .untilInstant(instant.adding(millis: Int64(seconds) * 1000))
    case .untilLocal(let wall)?: rule.end = .untilLocal(moved(wall))
    case .count?, nil: break
    }
    let recurrence = Recurrence(ruleText: rule.text, rule: rule, start: moved(start.wall), timeZone: zone,
                                exclusions: component.exceptionDates.map { moved($0.wall) })
    guard (try? RecurrenceEngine.validate(recurrence, field: "recurrence")) != nil else { return nil }
    let compared = Array(expected.prefix(checkedInstants))
    let fires = RecurrenceEngine.nextFires(after: now.adding(millis: -1), count: compared.count + 1, recurrence: recurrence,
                                           zone: zones.userZone).map(\.instant)
    guard Array(fires.prefix(compared.count)) == compared else { return nil }
    // Within the window the rule fires no more than the planner found.
    if expected.count <= checkedInstants, fires.count > compared.count, fires[compared.count] < until { return nil }
    return recurrence
  }
}
