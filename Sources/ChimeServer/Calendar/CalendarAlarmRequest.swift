import ChimeCore
import ChimeStore

/// What a planned calendar alarm becomes: a pending request of the calendar's app, due at the
/// alarm's instant. Title the SUMMARY, body the start ("in 10 minutes, 14:00–14:30") and the
/// LOCATION, thread the calendar, the category with Snooze and Dismiss. The identifier is a
/// hash of where the alarm comes from and what it shows, so a rescan that plans the same alarm
/// finds its pending request, and one that changed replaces it.
enum CalendarAlarmRequest {
  /// The category every calendar's alarms carry.
  static let categoryIdentifier = "calendar-alarm"
  static let dismissAction = "dismiss"

  /// The calendar app's categories: Dismiss, and the snooze durations offered after it; a
  /// dismissal from the desktop comes back as a response too.
  static let categories: [NotificationCategory] = {
    var category = NotificationCategory(identifier: categoryIdentifier, actions: [NotificationAction(identifier: dismissAction, title: "Dismiss")],
                                        options: [.customDismissAction])
    category.snoozeSeconds = [5 * 60, 15 * 60, 60 * 60]
    return [category]
  }()

  /// `missedGraceSeconds`: a missed fire later than this is not delivered (the calendar sums
  /// those up instead, `CalendarService+Missed`).
  /// `sound`: what an AUDIO alarm's local file plays (`SoundResolver.calendarFile`, looked up
  /// by the caller on the work pool); other alarms play the default sound.
  static func pending(_ alarm: PlannedAlarm, file: String, calendar: String, zone: Zone, now: Instant,
                      missedGraceSeconds: Double, sound: (String) -> SoundResolution = { _ in SoundResolution(plays: .default) }) -> PendingRequest {
    var content = NotificationContent(title: alarm.summary.map(oneLine) ?? "(no title)", body: body(alarm, zone: zone))
    content.threadIdentifier = calendar
    content.categoryIdentifier = categoryIdentifier
    content.sound = .default
    var resolution = SoundResolution(plays: .default)
    var soundFile = ""
    if case .audio(let path?) = alarm.action {
      soundFile = path
      resolution = sound(path)
      if resolution.plays == .named { content.sound = .named(path) }
    }
    // The sound file is part of what the alarm is: an ATTACH changed to another file replaces it.
    let identity = [file, alarm.uid, alarm.recurrenceID?.description ?? "", String(alarm.repeatIndex), String(alarm.at.unixMillis),
                    alarm.action.name, content.title, content.body] + (soundFile.isEmpty ? [] : [soundFile])
    let request = NotificationRequest(identifier: "cal-" + hex(fnv1a(identity.joined(separator: "\u{0}"))), content: content,
                                      trigger: trigger(at: alarm.at),
                                      missedFire: MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: missedGraceSeconds))
    return PendingRequest(request: request, nextFire: Instant(unixMillis: alarm.at.unixMillis / 1000 * 1000), added: now, sound: resolution)
  }

  /// Which alarm of its item a request is, as the store keeps it for writing back.
  static func origin(_ alarm: PlannedAlarm) -> ApplyCalendarScan.Origin {
    ApplyCalendarScan.Origin(uid: alarm.uid, recurrence: CalendarScanLine.recurrence(alarm.recurrenceID), repeatIndex: alarm.repeatIndex)
  }

  /// A calendar trigger for the whole second of `instant`, in UTC.
  static func trigger(at instant: Instant) -> Trigger {
    var components = CalendarComponents()
    let wall = wallTime(instant.unixMillis / 1000, offset: 0)
    (components.year, components.month, components.day) = (wall.year, wall.month, wall.day)
    (components.hour, components.minute, components.second) = (wall.hour, wall.minute, wall.second)
    components.timeZone = "UTC"
    return .calendar(CalendarTrigger(components: components))
  }

  /// "in 10 minutes, 14:00–14:30" and the location on a line of its own.
  static func body(_ alarm: PlannedAlarm, zone: Zone) -> String {
    var parts: [String] = []
    if let start = alarm.occurrenceStart {
      let lead = (start.unixMillis - alarm.at.unixMillis) / 1000
      var when = lead > 0 ? "in " + span(lead) : lead == 0 ? "now" : "started " + span(-lead) + " ago"
      let s = wallTime(start.unixMillis / 1000, offset: zone.secondsFromUTC(at: start))
      if let end = alarm.occurrenceEnd, end > start {
        let e = wallTime(end.unixMillis / 1000, offset: zone.secondsFromUTC(at: end))
        let length = (end.unixMillis - start.unixMillis) / 1000
        if s.hour == 0, s.minute == 0, e.hour == 0, e.minute == 0, length % 86_400 < 7200 || length % 86_400 > 79_200 {
          when += ", all day"
        } else {
          when += ", \(clock(s))–\(clock(e))"
        }
      } else {
        when += ", \(clock(s))"
      }
      parts.append(when)
    } else if let description = alarm.alarmDescription, !description.isEmpty {
      parts.append(oneLine(description))
    }
    if let location = alarm.location, !location.isEmpty { parts.append(oneLine(location)) }
    return parts.joined(separator: "\n")
  }

  private static func span(_ seconds: Int64) -> String {
    func unit(_ n: Int64, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
    if seconds < 60 { return unit(seconds, "second") }
    if seconds < 3600 { return unit(seconds / 60, "minute") }
    if seconds < 86_400 {
      let minutes = seconds / 60 % 60
      return unit(seconds / 3600, "hour") + (minutes == 0 ? "" : " " + unit(minutes, "minute"))
    }
    return unit(seconds / 86_400, "day")
  }

  private static func clock(_ t: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)) -> String {
    (t.hour < 10 ? "0" : "") + "\(t.hour):" + (t.minute < 10 ? "0" : "") + "\(t.minute)"
  }

  /// The civil time `seconds` (unix) shows at `offset` seconds from UTC.
  static func wallTime(_ seconds: Int64, offset: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    let local = seconds + Int64(offset)
    var days = local / 86_400
    var rest = local % 86_400
    if rest < 0 { rest += 86_400; days -= 1 }
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day), Int(rest / 3600), Int(rest / 60 % 60), Int(rest % 60))
  }

  /// Text for one line: control characters become spaces, cut to the content limits' size.
  private static func oneLine(_ text: String) -> String {
    String(String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }).prefix(1000))
  }

  private static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
