/// The alarms of one occurrence: where it ends, which triggers fire and when, less those
/// acknowledged, plus a Thunderbird snooze.
extension CalendarPlanner {
  /// Seconds from a component's start to its end (0 when it has no end).
  mutating func eventLength(_ c: CalendarComponent) -> Int64 {
    guard let s = c.start else { return 0 }
    let start = zoned(s)
    return occurrenceEnd(c, start: start).map { max(0, $0.instant - start.instant) } ?? 0
  }

  /// Where an occurrence starting at `start` ends: DTEND (or DUE) moved as the start moved (on
  /// the wall clock when both are in one zone), or the start plus DURATION; an event without
  /// either ends at its start, an all-day one a day later.
  mutating func occurrenceEnd(_ c: CalendarComponent, start: ZonedTime) -> ZonedTime? {
    let endTime = c.kind == .todo ? c.due : c.end
    if let endTime, let s = c.start {
      let firstStart = zoned(s)
      let firstEnd = zoned(endTime)
      if endTime.form == s.form {
        return ZonedTime(wall: start.wall + (firstEnd.wall - firstStart.wall), table: start.table)
      }
      return ZonedTime(instant: start.instant + (firstEnd.instant - firstStart.instant), table: firstEnd.table)
    }
    if let endTime { return zoned(endTime) }
    if let d = c.duration { return start.adding(d) }
    if c.kind == .event { return c.start?.isDate == true ? start.adding(CalendarDuration(days: 1)) : start }
    return nil
  }

  /// Plans `c`'s alarms for one occurrence; `absolute`: its absolute triggers too (not for each
  /// occurrence of a series, whose absolute alarm fires once); `snoozes`: its snoozed alarm too.
  mutating func planOccurrence(_ c: CalendarComponent, start: ZonedTime?, id: PlannedAlarm.OccurrenceID?,
                               original: CalendarComponent, absolute: Bool = true, snoozes: Bool = true) {
    var end: ZonedTime? = nil
    var endKnown = false
    let lastAck = [c.lastAcknowledged, original.lastAcknowledged].compactMap { $0 }.max()
    // A snoozed alarm (Thunderbird) comes back once at its snooze time, unless dismissed since.
    var snooze: Instant? = nil
    switch id {
    case nil: snooze = c.snoozedUntil ?? original.snoozedUntil
    case .instant(let start)?:
      let key = CivilDate.floorDiv(start.unixMillis, 1000)
      snooze = c.occurrenceSnoozes[key] ?? original.occurrenceSnoozes[key]
    case .date(let day)?:
      // Thunderbird names an all-day occurrence by its 00:00 in the user's zone.
      let key = ZonedTime(wall: day.wallSeconds, table: zones.userZone.table).instant
      snooze = c.occurrenceSnoozes[key] ?? original.occurrenceSnoozes[key]
    }
    // The end a notification shows.
    let shownEnd = (start.flatMap { occurrenceEnd(c, start: $0) } ?? (c.kind == .todo ? c.due.map { zoned($0) } : nil))
      .map { Instant(unixMillis: $0.instant * 1000) }
    let startInstant = start.map { Instant(unixMillis: $0.instant * 1000) }
    /// The alarm `alarm` asks for at `at`, told where its VALARM is.
    func planned(_ alarm: CalendarAlarm, position: Int, at: Instant, action: PlannedAlarm.Action, repeatIndex: Int = 0) -> PlannedAlarm {
      var planned = PlannedAlarm(uid: c.uid, recurrenceID: id, summary: c.summary ?? original.summary, alarmDescription: alarm.description,
                                 at: at, action: action, repeatIndex: repeatIndex, componentKind: c.kind, occurrenceStart: startInstant,
                                 location: c.location ?? original.location, occurrenceEnd: shownEnd)
      planned.componentIndex = c.index
      planned.alarmIndex = alarm.index ?? position
      return planned
    }
    if snoozes, let snooze, snooze >= Instant(unixMillis: after * 1000), snooze < Instant(unixMillis: until * 1000),
       let position = c.alarms.firstIndex(where: { $0.action == .display || $0.action == .audio }) {
      let alarm = c.alarms[position]
      let found = planned(alarm, position: position, at: snooze, action: alarm.action == .audio ? .audio(soundFile: alarm.soundFile) : .display)
      // Dismissed since: X-MOZ-LASTACK (Thunderbird), or the ACKNOWLEDGED Chime writes.
      if [lastAck, alarm.acknowledged].contains(where: { $0.map { $0 >= snooze } ?? false }) {
        plan.acknowledged.append(found)
      } else {
        plan.alarms.append(found)
      }
    }
    for (position, alarm) in c.alarms.prefix(CalendarItem.Limits.alarmsPerComponent).enumerated() {
      var base: ZonedTime
      switch alarm.trigger {
      case .absolute(let instant):
        // Fires once for the whole series: planned apart from a master's occurrences.
        guard absolute else { continue }
        base = ZonedTime(instant: CivilDate.floorDiv(instant.unixMillis, 1000), table: Zone.utc.table)
      case .relative(let d, let toEnd):
        let anchor: ZonedTime?
        if toEnd {
          if !endKnown, let start {
            end = occurrenceEnd(c, start: start)
            endKnown = true
          } else if !endKnown, c.kind == .todo, let due = c.due {
            end = zoned(due)
            endKnown = true
          }
          anchor = end
        } else {
          anchor = start
        }
        guard let anchor else {
          plan.problems.append("\(c.uid): a TRIGGER relative to the \(toEnd ? "end" : "start") of a \(c.kind.rawValue) without one is skipped")
          continue
        }
        base = anchor.adding(d)
      }
      let repeats = alarm.repeatInterval == nil ? 0 : min(max(alarm.repeatCount, 0), CalendarItem.Limits.repeats)
      for k in 0...repeats {
        let at = k == 0 ? base.instant : base.adding(CalendarDuration(days: alarm.repeatInterval!.days * k, seconds: alarm.repeatInterval!.seconds * k)).instant
        guard at >= after, at < until else { continue }
        let instant = Instant(unixMillis: at * 1000)
        let action: PlannedAlarm.Action
        switch alarm.action {
        case .display: action = .display
        case .audio: action = .audio(soundFile: alarm.soundFile)
        case .email:
          plan.ignored["EMAIL", default: 0] += 1
          continue
        case .procedure:
          plan.ignored["PROCEDURE", default: 0] += 1
          continue
        case .other(let name):
          plan.ignored[name, default: 0] += 1
          continue
        }
        let found = planned(alarm, position: position, at: instant, action: action, repeatIndex: k)
        if [alarm.acknowledged, lastAck].contains(where: { $0.map { $0 >= instant } ?? false }) {
          plan.acknowledged.append(found)
        } else {
          plan.alarms.append(found)
        }
      }
    }
  }
}
