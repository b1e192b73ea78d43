/// Turns an item and a window into alarm instants (issue 41). Pure: zones come in
/// `CalendarZones`, the window as two instants; no libical, no I/O beyond the zone table.
///
/// ## Occurrences
/// A component with RRULE or RDATE recurs. Its occurrences are DTSTART (always the first, as
/// RFC 5545 section 3.8.5.3 makes it), each RRULE's (ChimeCore's `RecurrenceEngine` walk, the
/// checked one) and each RDATE, less the EXDATEs; they are told apart by their original start
/// (the RECURRENCE-ID they would have). A component with RECURRENCE-ID replaces the occurrence
/// that started there; with `RANGE=THISANDFUTURE` it also replaces every later one, each moved
/// by as much as it moved its own (RFC 5545 section 3.8.4.4). `STATUS:CANCELLED` on the master
/// cancels every occurrence; on an override, that occurrence.
///
/// ## Times
/// UTC times are instants; a TZID is resolved by `CalendarZones`; floating times and all-day
/// dates are read in the user's zone (an all-day occurrence starts at its 00:00 there). A wall
/// time in a DST gap is read with the offset before the gap, one in an overlap at its first
/// occurrence (RFC 5545 section 3.3.5, as the recurrence engine does). Durations add their
/// days on the wall clock and their hours, minutes and seconds in real time (section 3.3.6).
///
/// ## Alarms
/// A relative TRIGGER counts from the occurrence's start, or with `RELATED=END` from its end
/// (DTEND, DTSTART + DURATION, a to-do's DUE; an event without either ends at its start, an
/// all-day one a day later). An absolute one fires once, whatever the recurrence. `REPEAT`
/// times `DURATION` more fire after it, each its own notification. ACTION DISPLAY and AUDIO are
/// planned; EMAIL, PROCEDURE and others are counted in `ignored`. An alarm whose ACKNOWLEDGED
/// (RFC 9074) or whose component's X-MOZ-LASTACK (Thunderbird) is at or after its instant was
/// dismissed and is left out (listed in `acknowledged`). A Thunderbird snooze (X-MOZ-SNOOZE-TIME, or -<RECURRENCE-ID> for
/// one occurrence) brings the component's first DISPLAY or AUDIO alarm back once at the snooze
/// time, unless X-MOZ-LASTACK or the alarm's ACKNOWLEDGED is at or after it.
public enum CalendarAlarmPlanner {
  /// The alarms of `item` at instants in `[after, until)`.
  public static func plan(_ item: CalendarItem, after: Instant, until: Instant, zones: CalendarZones) -> AlarmPlan {
    var planner = CalendarPlanner(item: item, after: after, until: until, zones: zones)
    var order: [String] = []
    var groups: [String: [CalendarComponent]] = [:]
    for (index, read) in item.components.prefix(CalendarItem.Limits.components).enumerated() {
      // Where each component and alarm is in the text, for writing back to it.
      var component = read
      component.index = index
      for k in component.alarms.indices where component.alarms[k].index == nil { component.alarms[k].index = k }
      // Components without a UID (against RFC 5545, but exported so) are each their own: they
      // cannot be revisions or overrides of one another.
      // An event and a to-do sharing a UID (seen in exports) are two things, not revisions.
      let key = component.uid.isEmpty ? "\u{0}\(index)" : component.kind.rawValue + "\u{0}" + component.uid
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(component)
    }
    if item.components.count > CalendarItem.Limits.components {
      planner.plan.problems.append("only the first \(CalendarItem.Limits.components) components are read")
    }
    for uid in order { planner.planGroup(groups[uid]!) }
    planner.plan.alarms.sort(by: PlannedAlarm.inPlanOrder)
    planner.plan.acknowledged.sort(by: PlannedAlarm.inPlanOrder)
    return planner.plan
  }
}

/// A time on a zone's wall clock and the instant it is (UTC seconds).
struct ZonedTime {
  var wall: Int64
  var instant: Int64
  let table: ZoneTable

  /// `wall` read in `table` by RFC 5545's DST rule.
  init(wall: Int64, table: ZoneTable) {
    self.wall = wall
    self.table = table
    switch table.resolve(wall: wall) {
    case .single(let t): instant = t
    case .repeated(let first, _): instant = first
    case .skipped(let gapEnd): instant = wall - Int64(table.offset(at: gapEnd - 1))
    }
  }

  init(instant: Int64, table: ZoneTable) {
    self.instant = instant
    self.table = table
    wall = instant + Int64(table.offset(at: instant))
  }

  /// Days on the wall clock, then seconds in real time.
  func adding(_ d: CalendarDuration) -> ZonedTime {
    let day = d.days == 0 ? self : ZonedTime(wall: wall + Int64(d.days) * CivilDate.secondsPerDay, table: table)
    return d.seconds == 0 ? day : ZonedTime(instant: day.instant + Int64(d.seconds), table: table)
  }
}

/// One `plan` call's state: the window, the zones read so far and the plan being made.
struct CalendarPlanner {
  let item: CalendarItem
  let after: Int64
  let until: Int64
  let zones: CalendarZones
  var plan = AlarmPlan()
  var zoneCache: [String: ZoneTable] = [:]

  init(item: CalendarItem, after: Instant, until: Instant, zones: CalendarZones) {
    self.item = item
    // Whole seconds: iCalendar has no finer times. `after` is inclusive.
    self.after = CivilDate.floorDiv(after.unixMillis + 999, 1000)
    self.until = CivilDate.floorDiv(until.unixMillis + 999, 1000)
    self.zones = zones
  }

  mutating func table(for time: CalendarTime) -> ZoneTable {
    switch time.form {
    case .utc: return Zone.utc.table
    case .floating, .date: return zones.userZone.table
    case .zoned(let id):
      if let table = zoneCache[id] { return table }
      let (zone, source) = zones.zone(for: id, in: item, around: after)
      if source == .unknown { plan.problems.append("unknown TZID \"\(id.prefix(80))\": read in the user's zone \(zones.userZone.identifier)") }
      zoneCache[id] = zone.table
      return zone.table
    }
  }

  mutating func zoned(_ time: CalendarTime) -> ZonedTime {
    ZonedTime(wall: time.wall.wallSeconds, table: table(for: time))
  }

  mutating func occurrenceID(_ time: CalendarTime) -> PlannedAlarm.OccurrenceID {
    time.isDate ? .date(time.wall) : .instant(Instant(unixMillis: zoned(time).instant * 1000))
  }

  mutating func planGroup(_ components: [CalendarComponent]) {
    // Two revisions of one component (a file holding an edit after the original): the higher
    // SEQUENCE is the current one (RFC 5545 section 3.8.7.4), the later one on a tie.
    var master: CalendarComponent? = nil
    var overrides: [CalendarComponent] = []
    for c in components {
      if c.recurrenceID == nil {
        if master.map({ c.sequence >= $0.sequence }) ?? true { master = c }
      } else if let k = overrides.firstIndex(where: { $0.recurrenceID == c.recurrenceID }) {
        if c.sequence >= overrides[k].sequence { overrides[k] = c }
      } else {
        overrides.append(c)
      }
    }
    if let master { planSeries(master, overrides: overrides) }
    if master == nil {
      // Overrides alone (a calendar invites to one occurrence): each is its own occurrence.
      for o in overrides where !o.isCancelled {
        planOccurrence(o, start: o.start.map { zoned($0) }, id: occurrenceID(o.recurrenceID!), original: o)
      }
    }
  }

  mutating func planSeries(_ master: CalendarComponent, overrides: [CalendarComponent]) {
    guard !master.isCancelled else { return }
    let recurs = !master.rules.isEmpty || !master.recurrenceDates.isEmpty
    guard recurs, let start = master.start else {
      planOccurrence(master, start: master.start.map { zoned($0) }, id: nil, original: master)
      // Overrides of a master that does not recur still replace nothing else: plan them too.
      for o in overrides where !o.isCancelled {
        planOccurrence(o, start: o.start.map { zoned($0) }, id: occurrenceID(o.recurrenceID!), original: o)
      }
      return
    }
    guard master.alarms.count + overrides.reduce(0, { $0 + $1.alarms.count }) > 0 else { return }

    // Overrides by the occurrence they replace; THISANDFUTURE ones by start, latest last.
    var exact: [PlannedAlarm.OccurrenceID: CalendarComponent] = [:]
    var ranges: [(from: Int64, id: PlannedAlarm.OccurrenceID, component: CalendarComponent, shift: Int64)] = []
    var slack: Int64 = 2 * CivilDate.secondsPerDay
    for o in overrides {
      let id = occurrenceID(o.recurrenceID!)
      exact[id] = o
      if o.thisAndFuture, let s = o.start {
        let from = zoned(o.recurrenceID!).instant
        let shift = zoned(s).instant - from
        ranges.append((from, id, o, shift))
        slack = max(slack, abs(shift) + 2 * CivilDate.secondsPerDay)
      }
    }
    ranges.sort { $0.from < $1.from }

    // Occurrence starts that can have an alarm in the window: alarms lie within their
    // triggers' reach (plus the event's length and repeats) of the start.
    var reach: Int64 = 0
    let length = eventLength(master)
    for alarm in (master.alarms + overrides.flatMap(\.alarms)) {
      guard case .relative(let d, let toEnd) = alarm.trigger else { continue }
      var r = abs(Int64(d.days) * CivilDate.secondsPerDay + Int64(d.seconds)) + (toEnd ? length : 0)
      if let interval = alarm.repeatInterval {
        r += Int64(min(alarm.repeatCount, CalendarItem.Limits.repeats)) * abs(Int64(interval.days) * CivilDate.secondsPerDay + Int64(interval.seconds))
      }
      reach = max(reach, r)
    }
    let low = after - reach - slack
    let high = until + reach + slack

    let startTime = zoned(start)
    var excluded: Set<PlannedAlarm.OccurrenceID> = []
    for exdate in master.exceptionDates.prefix(CalendarItem.Limits.datesPerComponent) {
      // An EXDATE names an occurrence by its start; a DATE one on a timed series names the day's.
      if exdate.isDate && !start.isDate {
        excluded.insert(.date(exdate.wall))
      } else {
        excluded.insert(occurrenceID(exdate))
      }
    }
    var starts: [(id: PlannedAlarm.OccurrenceID, time: ZonedTime)] = []
    func keep(_ time: ZonedTime, _ id: PlannedAlarm.OccurrenceID) {
      guard time.instant >= low, time.instant <= high else { return }
      let day = LocalDateTime(wallSeconds: CivilDate.floorDiv(time.wall, CivilDate.secondsPerDay) * CivilDate.secondsPerDay)
      if excluded.contains(id) || (!start.isDate && excluded.contains(.date(day))) { return }
      starts.append((id, time))
    }
    keep(startTime, occurrenceID(start))
    for text in master.rules {
      let ruleText = CalendarRules.normalized(text, start: start.wall, isDate: start.isDate)
      let rule: RecurrenceRule
      do {
        rule = try RecurrenceRule.parse(ruleText)
      } catch {
        plan.problems.append("\(master.uid): RRULE \(text.prefix(200)) is not read (\(error.message)); only DTSTART and RDATE occur")
        continue
      }
      let walk = RecurrenceWalk(Recurrence(ruleText: ruleText, rule: rule, start: start.wall, timeZone: nil), table: startTime.table)
      var seen = 0
      var truncated = false
      // Walls below low + the zone's smallest offset cannot be at or after `low`.
      walk.walk(skipThrough: low + walk.minOffset - 1) { hit, _ in
        if hit.instant > high { return hit.wall - walk.maxOffset <= high }
        seen += 1
        if seen > CalendarItem.Limits.occurrencesPerWindow {
          truncated = true
          return false
        }
        let time = ZonedTime(wall: hit.wall, table: startTime.table)
        let id: PlannedAlarm.OccurrenceID = start.isDate ? .date(LocalDateTime(wallSeconds: hit.wall)) : .instant(Instant(unixMillis: hit.instant * 1000))
        keep(time, id)
        return true
      }
      if truncated {
        plan.problems.append("\(master.uid): more than \(CalendarItem.Limits.occurrencesPerWindow) occurrences in the window; the rest are left out")
      }
    }
    for rdate in master.recurrenceDates.prefix(CalendarItem.Limits.datesPerComponent) {
      keep(zoned(rdate), occurrenceID(rdate))
    }

    var done: Set<PlannedAlarm.OccurrenceID> = []
    for (id, time) in starts.sorted(by: { $0.time.instant < $1.time.instant }) where done.insert(id).inserted {
      if exact[id] != nil { continue }
      if let range = ranges.last(where: { $0.from <= time.instant }) {
        if range.component.isCancelled { continue }
        let moved = ZonedTime(instant: time.instant + range.shift, table: time.table)
        planOccurrence(range.component, start: moved, id: id, original: master, absolute: false)
      } else {
        planOccurrence(master, start: time, id: id, original: master, absolute: false)
      }
    }
    // The master's absolute alarms, once, named after its first occurrence.
    if master.alarms.contains(where: { if case .absolute = $0.trigger { true } else { false } }) {
      var only = master
      only.alarms = master.alarms.filter { if case .absolute = $0.trigger { true } else { false } }
      planOccurrence(only, start: startTime, id: occurrenceID(start), original: master, snoozes: false)
    }
    for (id, o) in exact where !o.isCancelled {
      planOccurrence(o, start: o.start.map { zoned($0) }, id: id, original: master)
    }
  }
}
