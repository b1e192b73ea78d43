internal import CLibical
import ChimeCore

/// The one file that calls libical: parses an item's text (unfolding lines, reading
/// parameters, undoing escapes) and copies what alarms need into ChimeCore's `CalendarItem`.
/// libical's own values never leave this file; the parsed tree is freed before returning.
///
/// libical is not thread-safe in its iterators and error state; a reader is used on one thread
/// at a time (the CLI's, or the daemon's work pool one item at a time), under `lock`.
enum LibicalReader {
  static let lock = LibicalLock()

  static func read(_ text: String, warnings: inout [String]) throws(CalendarReadError) -> CalendarItem {
    try lock.withLock { () throws(CalendarReadError) -> CalendarItem in
      // A malformed value must give an X-LIC-ERROR property, never abort the process.
      icalerror_set_errors_are_fatal(0)
      icalerror_clear_errno()
      guard let root = icalparser_parse_string(text) else {
        throw CalendarReadError("libical found no iCalendar component")
      }
      defer { icalcomponent_free(root) }
      var item = CalendarItem()
      var calendars: [OpaquePointer] = []
      switch icalcomponent_isa(root) {
      case ICAL_VCALENDAR_COMPONENT:
        calendars = [root]
      case ICAL_XROOT_COMPONENT:
        // Several VCALENDARs in one file: libical puts them under an XROOT.
        var c = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
        while let calendar = c {
          calendars.append(calendar)
          c = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
        }
      case ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT:
        // A bare component (no VCALENDAR around it) is read as it is.
        calendars = []
        if let component = readComponent(root, warnings: &warnings) { item.components.append(component) }
      default:
        throw CalendarReadError("the item is not a VCALENDAR")
      }
      for calendar in calendars {
        var c = icalcomponent_get_first_component(calendar, ICAL_ANY_COMPONENT)
        while let child = c {
          switch icalcomponent_isa(child) {
          case ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT:
            guard item.components.count < CalendarItem.Limits.components else {
              throw CalendarReadError("more than \(CalendarItem.Limits.components) events and to-dos")
            }
            if let component = readComponent(child, warnings: &warnings) { item.components.append(component) }
          case ICAL_VTIMEZONE_COMPONENT:
            guard item.timeZones.count < CalendarItem.Limits.timeZones else {
              throw CalendarReadError("more than \(CalendarItem.Limits.timeZones) VTIMEZONEs")
            }
            if let zone = readTimeZone(child, warnings: &warnings) { item.timeZones.append(zone) }
          default:
            break
          }
          c = icalcomponent_get_next_component(calendar, ICAL_ANY_COMPONENT)
        }
      }
      return item
    }
  }

  /// Every property of `c`, in order.
  static func properties(_ c: OpaquePointer) -> [OpaquePointer] {
    var result: [OpaquePointer] = []
    var p = icalcomponent_get_first_property(c, ICAL_ANY_PROPERTY)
    while let property = p {
      result.append(property)
      p = icalcomponent_get_next_property(c, ICAL_ANY_PROPERTY)
    }
    return result
  }

  static func string(_ s: UnsafePointer<CChar>?) -> String? {
    s.map { String(cString: $0) }
  }

  /// A DATE or DATE-TIME value with its TZID parameter.
  static func time(_ t: icaltimetype, _ p: OpaquePointer) -> CalendarTime? {
    guard icaltime_is_null_time(t) == 0,
          let wall = LocalDateTime(year: Int(t.year), month: Int(t.month), day: Int(t.day),
                                   hour: t.is_date != 0 ? 0 : Int(t.hour), minute: t.is_date != 0 ? 0 : Int(t.minute),
                                   second: t.is_date != 0 ? 0 : min(59, Int(t.second)))
    else { return nil }
    if t.is_date != 0 { return CalendarTime(wall, .date) }
    if icaltime_is_utc(t) != 0 { return CalendarTime(wall, .utc) }
    if let parameter = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER), let tzid = string(icalparameter_get_tzid(parameter)) {
      return CalendarTime(wall, .zoned(tzid))
    }
    return CalendarTime(wall, .floating)
  }

  static func duration(_ d: icaldurationtype) -> CalendarDuration {
    let sign = d.is_neg != 0 ? -1 : 1
    let days = Int(d.weeks) * 7 + Int(d.days)
    let seconds = Int(d.hours) * 3600 + Int(d.minutes) * 60 + Int(d.seconds)
    return CalendarDuration(days: sign * days, seconds: sign * seconds)
  }

  /// A UTC DATE-TIME text (`20201120T100000Z`) as an instant; nil otherwise.
  static func utcInstant(_ text: String) -> Instant? {
    let trimmed = text.trimmingWhitespace()
    guard trimmed.uppercased().hasSuffix("Z"), let wall = LocalDateTime(parsing: String(trimmed.dropLast())) else { return nil }
    return Instant(unixMillis: CalendarTimes.unixSeconds(wall) * 1000)
  }

  static func readComponent(_ c: OpaquePointer, warnings: inout [String]) -> CalendarComponent? {
    let kind: CalendarComponent.Kind = icalcomponent_isa(c) == ICAL_VTODO_COMPONENT ? .todo : .event
    var component = CalendarComponent(kind: kind, uid: "")
    var dates = 0
    for p in properties(c) {
      switch icalproperty_isa(p) {
      case ICAL_UID_PROPERTY: component.uid = string(icalproperty_get_uid(p)) ?? ""
      case ICAL_SUMMARY_PROPERTY: component.summary = string(icalproperty_get_summary(p))
      case ICAL_LOCATION_PROPERTY: component.location = string(icalproperty_get_location(p))
      case ICAL_DTSTART_PROPERTY: component.start = time(icalproperty_get_dtstart(p), p)
      case ICAL_DTEND_PROPERTY: component.end = time(icalproperty_get_dtend(p), p)
      case ICAL_DUE_PROPERTY: component.due = time(icalproperty_get_due(p), p)
      case ICAL_DURATION_PROPERTY: component.duration = duration(icalproperty_get_duration(p))
      case ICAL_RRULE_PROPERTY:
        if let text = string(icalproperty_get_value_as_string(p)) { component.rules.append(text) }
      case ICAL_RDATE_PROPERTY, ICAL_EXDATE_PROPERTY:
        dates += 1
        guard dates <= CalendarItem.Limits.datesPerComponent else { continue }
        let isRDate = icalproperty_isa(p) == ICAL_RDATE_PROPERTY
        // An RDATE may be a PERIOD: its start is the occurrence's.
        let value = isRDate ? icalproperty_get_rdate(p).time : icalproperty_get_exdate(p)
        let t = isRDate && icaltime_is_null_time(value) != 0 ? icalproperty_get_rdate(p).period.start : value
        guard let parsed = time(t, p) else { continue }
        if isRDate { component.recurrenceDates.append(parsed) } else { component.exceptionDates.append(parsed) }
      case ICAL_RECURRENCEID_PROPERTY:
        component.recurrenceID = time(icalproperty_get_recurrenceid(p), p)
        if let range = icalproperty_get_first_parameter(p, ICAL_RANGE_PARAMETER) {
          component.thisAndFuture = icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
        }
      case ICAL_SEQUENCE_PROPERTY: component.sequence = Int(icalproperty_get_sequence(p))
      case ICAL_STATUS_PROPERTY:
        component.isCancelled = icalproperty_get_status(p) == ICAL_STATUS_CANCELLED
      case ICAL_X_PROPERTY:
        let name = string(icalproperty_get_x_name(p))?.uppercased() ?? ""
        guard let value = string(icalproperty_get_value_as_string(p)) else { continue }
        if name == "X-MOZ-LASTACK" {
          component.lastAcknowledged = utcInstant(value)
        } else if name == "X-MOZ-SNOOZE-TIME" {
          component.snoozedUntil = utcInstant(value)
        } else if name.hasPrefix("X-MOZ-SNOOZE-TIME-"), component.occurrenceSnoozes.count < CalendarItem.Limits.datesPerComponent,
                  let micros = Int64(name.dropFirst("X-MOZ-SNOOZE-TIME-".count)), let until = utcInstant(value) {
          component.occurrenceSnoozes[micros / 1_000_000] = until
        }
      case ICAL_XLICERROR_PROPERTY:
        if warnings.count < 20, let text = string(icalproperty_get_value_as_string(p)) { warnings.append(String(text.prefix(200))) }
      default:
        break
      }
    }
    var a = icalcomponent_get_first_component(c, ICAL_VALARM_COMPONENT)
    // Each alarm keeps its position among the component's VALARMs in the text (libical keeps
    // their order), those dropped counted too: what the user does with it is written there.
    var position = 0
    while let alarm = a {
      if component.alarms.count < CalendarItem.Limits.alarmsPerComponent, var parsed = readAlarm(alarm) {
        parsed.index = position
        component.alarms.append(parsed)
      }
      position += 1
      a = icalcomponent_get_next_component(c, ICAL_VALARM_COMPONENT)
    }
    if component.uid.isEmpty { warnings.append("a \(kind.rawValue) without UID") }
    return component
  }

  static func readAlarm(_ c: OpaquePointer) -> CalendarAlarm? {
    var action: CalendarAlarm.Action?
    var trigger: CalendarAlarm.Trigger?
    var alarm = CalendarAlarm(action: .display, trigger: .relative(CalendarDuration(), toEnd: false))
    for p in properties(c) {
      switch icalproperty_isa(p) {
      case ICAL_ACTION_PROPERTY:
        switch icalproperty_get_action(p) {
        case ICAL_ACTION_DISPLAY: action = .display
        case ICAL_ACTION_AUDIO: action = .audio
        case ICAL_ACTION_EMAIL: action = .email
        case ICAL_ACTION_PROCEDURE: action = .procedure
        default: action = .other(string(icalproperty_get_value_as_string(p))?.uppercased() ?? "X")
        }
      case ICAL_TRIGGER_PROPERTY:
        let t = icalproperty_get_trigger(p)
        if icaltime_is_null_time(t.time) == 0 {
          // An absolute trigger is UTC (RFC 5545 section 3.8.6.3); a local one is read as UTC.
          guard let wall = LocalDateTime(year: Int(t.time.year), month: Int(t.time.month), day: Int(t.time.day),
                                         hour: Int(t.time.hour), minute: Int(t.time.minute), second: min(59, Int(t.time.second)))
          else { return nil }
          trigger = .absolute(Instant(unixMillis: CalendarTimes.unixSeconds(wall) * 1000))
        } else {
          var toEnd = false
          if let related = icalproperty_get_first_parameter(p, ICAL_RELATED_PARAMETER) {
            toEnd = icalparameter_get_related(related) == ICAL_RELATED_END
          }
          trigger = .relative(duration(t.duration), toEnd: toEnd)
        }
      case ICAL_REPEAT_PROPERTY: alarm.repeatCount = Int(icalproperty_get_repeat(p))
      case ICAL_DURATION_PROPERTY: alarm.repeatInterval = duration(icalproperty_get_duration(p))
      case ICAL_DESCRIPTION_PROPERTY: alarm.description = string(icalproperty_get_description(p))
      case ICAL_ATTACH_PROPERTY:
        if let attach = icalproperty_get_attach(p), icalattach_get_is_url(attach) != 0 {
          alarm.attachment = string(icalattach_get_url(attach))
        }
      case ICAL_ACKNOWLEDGED_PROPERTY:
        let t = icalproperty_get_acknowledged(p)
        if let ack = time(t, p), ack.form == .utc { alarm.acknowledged = Instant(unixMillis: CalendarTimes.unixSeconds(ack.wall) * 1000) }
      default:
        break
      }
    }
    // ACTION and TRIGGER are required (RFC 5545 section 3.6.6); an alarm without them is dropped.
    guard let action, let trigger else { return nil }
    alarm.action = action
    alarm.trigger = trigger
    // A REPEAT without a DURATION (or with a zero one) cannot repeat.
    if alarm.repeatInterval?.isZero ?? true { alarm.repeatCount = 0 }
    return alarm
  }

  static func readTimeZone(_ c: OpaquePointer, warnings: inout [String]) -> CalendarTimeZone? {
    var zone = CalendarTimeZone(id: "", observances: [])
    for p in properties(c) {
      if icalproperty_isa(p) == ICAL_TZID_PROPERTY {
        zone.id = string(icalproperty_get_tzid(p)) ?? ""
      } else if icalproperty_isa(p) == ICAL_X_PROPERTY, string(icalproperty_get_x_name(p))?.uppercased() == "X-LIC-LOCATION",
                let value = string(icalproperty_get_value_as_string(p)) {
        zone.location = String(value.prefix(255))
      }
    }
    var s = icalcomponent_get_first_component(c, ICAL_ANY_COMPONENT)
    while let sub = s {
      let kind = icalcomponent_isa(sub)
      if (kind == ICAL_XSTANDARD_COMPONENT || kind == ICAL_XDAYLIGHT_COMPONENT), zone.observances.count < CalendarItem.Limits.observances {
        var start: LocalDateTime?
        var from: Int?
        var to: Int?
        var rules: [String] = []
        var dates: [LocalDateTime] = []
        for p in properties(sub) {
          switch icalproperty_isa(p) {
          case ICAL_DTSTART_PROPERTY: start = time(icalproperty_get_dtstart(p), p)?.wall
          case ICAL_TZOFFSETFROM_PROPERTY: from = Int(icalproperty_get_tzoffsetfrom(p))
          case ICAL_TZOFFSETTO_PROPERTY: to = Int(icalproperty_get_tzoffsetto(p))
          case ICAL_RRULE_PROPERTY:
            if let text = string(icalproperty_get_value_as_string(p)) { rules.append(text) }
          case ICAL_RDATE_PROPERTY:
            if dates.count < CalendarItem.Limits.datesPerComponent, let t = time(icalproperty_get_rdate(p).time, p) { dates.append(t.wall) }
          default: break
          }
        }
        if let start, let from, let to {
          zone.observances.append(.init(isDaylight: kind == ICAL_XDAYLIGHT_COMPONENT, start: start, offsetFrom: from, offsetTo: to,
                                        rules: rules, dates: dates))
        } else {
          warnings.append("VTIMEZONE \(zone.id.prefix(80)): an observance without DTSTART, TZOFFSETFROM or TZOFFSETTO is left out")
        }
      }
      s = icalcomponent_get_next_component(c, ICAL_ANY_COMPONENT)
    }
    return zone.id.isEmpty ? nil : zone
  }
}
