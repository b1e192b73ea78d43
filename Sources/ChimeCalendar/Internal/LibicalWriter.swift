internal import CLibical
import ChimeCore

/// Builds a VCALENDAR with libical's constructors and has libical write it, so escaping
/// (`\,` `\;` `\n`), line folding at 75 octets and value formats are libical's, not Chime's.
/// Like `LibicalReader`, it runs under the one libical lock and frees every tree it builds.
enum LibicalWriter {
  /// The calendar text (CRLF line ends, folded) and a note per event whose RRULE libical did
  /// not take (that event is written without it).
  static func write(_ events: [ExportedEvent], stamp: Instant, productID: String) -> (text: String, notes: [String]) {
    LibicalReader.lock.withLock {
      icalerror_set_errors_are_fatal(0)
      icalerror_clear_errno()
      var notes: [String] = []
      let calendar = icalcomponent_new_vcalendar()!
      defer { icalcomponent_free(calendar) }
      icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
      icalcomponent_add_property(calendar, icalproperty_new_prodid(productID))
      // RFC 5545 wants a VTIMEZONE for each TZID: libical's, from the system's zone data,
      // renamed from its `/freeassociation.sourceforge.net/…` prefix to the plain IANA name.
      var zones: [String] = []
      for event in events {
        for time in [event.start] + event.exceptionDates {
          if case .zoned(let id) = time.form, !zones.contains(id) { zones.append(id) }
        }
      }
      for id in zones {
        guard let zone = icaltimezone_get_builtin_timezone(id), let definition = icaltimezone_get_component(zone),
              let copy = icalcomponent_new_clone(definition) else {
          notes.append("TZID \(id): libical has no definition of the zone; its VTIMEZONE is left out")
          continue
        }
        if let tzid = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) { icalproperty_set_tzid(tzid, id) }
        icalcomponent_add_component(calendar, copy)
      }
      for event in events {
        let (component, note) = vevent(event, stamp: stamp)
        if let note { notes.append("\(event.uid): \(note)") }
        icalcomponent_add_component(calendar, component)
      }
      guard let text = icalcomponent_as_ical_string_r(calendar) else { return ("", notes) }
      defer { icalmemory_free_buffer(text) }
      return (String(cString: text), notes)
    }
  }

  private static func vevent(_ event: ExportedEvent, stamp: Instant) -> (OpaquePointer, String?) {
    let c = icalcomponent_new_vevent()!
    var note: String?
    icalcomponent_add_property(c, icalproperty_new_uid(event.uid))
    icalcomponent_add_property(c, icalproperty_new_dtstamp(time(CalendarTime(CalendarTimes.utcWall(stamp), .utc))))
    icalcomponent_add_property(c, timed(icalproperty_new_dtstart(time(event.start)), event.start))
    var rules: [String] = []
    if let rule = event.rule {
      let recurrence = icalrecurrencetype_from_string(rule)
      if recurrence.freq == ICAL_NO_RECURRENCE {
        icalerror_clear_errno()
        note = "libical does not take the rule \(rule): written without RRULE"
      } else {
        let p = icalproperty_new_rrule(recurrence)!
        icalcomponent_add_property(c, p)
        // The fingerprint is made of what a reader gets back, libical's spelling of the rule.
        rules.append(LibicalReader.string(icalproperty_get_value_as_string(p)) ?? rule)
      }
    }
    for date in event.exceptionDates {
      icalcomponent_add_property(c, timed(icalproperty_new_exdate(time(date)), date))
    }
    icalcomponent_add_property(c, icalproperty_new_summary(event.summary))
    if !event.description.isEmpty { icalcomponent_add_property(c, icalproperty_new_description(event.description)) }
    var properties = event.properties
    properties.append(.init(ScheduleFingerprint.property,
                            ScheduleFingerprint.of(start: event.start, rules: rules, recurrenceDates: [], exceptionDates: event.exceptionDates)))
    for property in properties {
      let p = icalproperty_new(ICAL_X_PROPERTY)!
      icalproperty_set_x_name(p, property.name)
      // A TEXT value: libical 3.0 escapes its backslashes and newlines (not its commas and
      // semicolons, for an X- property; `LibicalExtras` joins what its parser splits at a comma).
      icalproperty_set_value(p, icalvalue_new_text(property.value))
      icalcomponent_add_property(c, p)
    }
    let alarm = icalcomponent_new_valarm()!
    icalcomponent_add_property(alarm, icalproperty_new_action(ICAL_ACTION_DISPLAY))
    icalcomponent_add_property(alarm, icalproperty_new_trigger(icaltriggertype_from_string("PT0S")))
    icalcomponent_add_property(alarm, icalproperty_new_description(event.alarmDescription))
    icalcomponent_add_component(c, alarm)
    return (c, note)
  }

  /// `p` with a TZID parameter when `t` is zoned.
  private static func timed(_ p: OpaquePointer?, _ t: CalendarTime) -> OpaquePointer {
    if case .zoned(let id) = t.form { icalproperty_add_parameter(p, icalparameter_new_tzid(id)) }
    return p!
  }

  private static func time(_ t: CalendarTime) -> icaltimetype {
    var v = icaltime_null_time()
    v.year = Int32(t.wall.year)
    v.month = Int32(t.wall.month)
    v.day = Int32(t.wall.day)
    v.is_date = t.isDate ? 1 : 0
    if !t.isDate {
      v.hour = Int32(t.wall.hour)
      v.minute = Int32(t.wall.minute)
      v.second = Int32(t.wall.second)
    }
    if t.form == .utc { v.zone = icaltimezone_get_utc_timezone() }
    return v
  }
}
