internal import CLibical
import ChimeCore

/// What an import needs of each VEVENT and VTODO besides `CalendarItem` (which keeps only what
/// alarms need): its DESCRIPTION and its `X-CHIME-…` properties. Walks the components in the
/// order `LibicalReader` does, so the n-th entry belongs to `item.components[n]`.
enum LibicalExtras {
  /// Bytes kept of one X-CHIME value (X-CHIME-REQUEST holds a record; the item is at most 1 MiB).
  static let valueLimit = 1 << 20

  static func read(_ text: String) -> [CalendarFileReader.ComponentExtras] {
    LibicalReader.lock.withLock {
      icalerror_set_errors_are_fatal(0)
      icalerror_clear_errno()
      guard let root = icalparser_parse_string(text) else { return [] }
      defer { icalcomponent_free(root) }
      var result: [CalendarFileReader.ComponentExtras] = []
      func visit(_ component: OpaquePointer) {
        guard result.count < CalendarItem.Limits.components else { return }
        var extras = CalendarFileReader.ComponentExtras()
        for p in LibicalReader.properties(component) {
          switch icalproperty_isa(p) {
          case ICAL_DESCRIPTION_PROPERTY:
            extras.description = LibicalReader.string(icalproperty_get_description(p))
          case ICAL_X_PROPERTY:
            let name = LibicalReader.string(icalproperty_get_x_name(p))?.uppercased() ?? ""
            guard name.hasPrefix("X-CHIME-"), extras.chime.count < 16,
                  let value = LibicalReader.string(icalproperty_get_value_as_string(p)), value.utf8.count <= valueLimit else { continue }
            // libical 3.0 writes an X- property's commas unescaped and its parser then splits
            // the value there into several properties: the parts are joined back.
            if let earlier = extras.chime[name] {
              if earlier.utf8.count + value.utf8.count <= valueLimit { extras.chime[name] = earlier + "," + unescaped(value) }
            } else {
              extras.chime[name] = unescaped(value)
            }
          default:
            break
          }
        }
        result.append(extras)
      }
      switch icalcomponent_isa(root) {
      case ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT:
        visit(root)
      case ICAL_VCALENDAR_COMPONENT, ICAL_XROOT_COMPONENT:
        var calendars: [OpaquePointer] = []
        if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT {
          calendars = [root]
        } else {
          var c = icalcomponent_get_first_component(root, ICAL_VCALENDAR_COMPONENT)
          while let calendar = c {
            calendars.append(calendar)
            c = icalcomponent_get_next_component(root, ICAL_VCALENDAR_COMPONENT)
          }
        }
        for calendar in calendars {
          var c = icalcomponent_get_first_component(calendar, ICAL_ANY_COMPONENT)
          while let child = c {
            let kind = icalcomponent_isa(child)
            if kind == ICAL_VEVENT_COMPONENT || kind == ICAL_VTODO_COMPONENT { visit(child) }
            c = icalcomponent_get_next_component(calendar, ICAL_ANY_COMPONENT)
          }
        }
      default:
        break
      }
      return result
    }
  }

  /// RFC 5545 TEXT escapes undone (`\\` `\;` `\,` `\n`): libical hands an X- property's
  /// value back as written.
  static func unescaped(_ value: String) -> String {
    guard value.contains("\\") else { return value }
    var out = ""
    var escaped = false
    for c in value {
      if escaped {
        out.append(c == "n" || c == "N" ? "\n" : c)
        escaped = false
      } else if c == "\\" {
        escaped = true
      } else {
        out.append(c)
      }
    }
    return out
  }
}
