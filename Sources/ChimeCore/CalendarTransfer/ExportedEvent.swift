/// One VEVENT that `chime export --ics` writes for a pending request (issue 41 item 7): what
/// ChimeCalendar's libical writer puts in the file, decided here without libical.
///
/// Always a VEVENT, never a VTODO: a reminder fires at an instant, which is what an event's
/// DTSTART says; calendar apps (Thunderbird, GNOME Calendar, Google, Apple) show events with
/// their alarms, while many ignore to-dos or their DTSTART.
public struct ExportedEvent: Hashable, Sendable {
  /// An `X-CHIME-…` property (name without the prefix check: the writer adds it as given).
  public struct Property: Hashable, Sendable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Stable for one app's request: `RequestExport.uid(app:identifier:)`.
  public var uid: String
  /// SUMMARY: the title (subtitle after it when there is no title).
  public var summary: String
  /// DESCRIPTION: the body (empty: none written).
  public var description: String
  /// DTSTART: UTC, a named IANA zone (written with TZID), or floating.
  public var start: CalendarTime
  /// RRULE value, nil for a request that fires once.
  public var rule: String?
  /// EXDATE values, in the start's form.
  public var exceptionDates: [CalendarTime]
  /// The VALARM's DESCRIPTION (RFC 5545 requires one for ACTION:DISPLAY).
  public var alarmDescription: String
  /// X-CHIME-APP, X-CHIME-IDENTIFIER, X-CHIME-REQUEST; the writer adds X-CHIME-SCHEDULE.
  public var properties: [Property]

  public init(uid: String, summary: String, description: String, start: CalendarTime, rule: String? = nil,
              exceptionDates: [CalendarTime] = [], alarmDescription: String, properties: [Property] = []) {
    self.uid = uid
    self.summary = summary
    self.description = description
    self.start = start
    self.rule = rule
    self.exceptionDates = exceptionDates
    self.alarmDescription = alarmDescription
    self.properties = properties
  }
}

/// X-CHIME-SCHEDULE: a digest of an event's schedule (DTSTART, RRULE, RDATE, EXDATE) as libical
/// reads it back. Export writes it; import compares it with the component it reads: equal means
/// the event's time was not edited in a calendar app, so the exact trigger Chime stored in
/// X-CHIME-REQUEST is restored; different means the calendar's edit wins and the trigger is
/// made from the event's own schedule and alarms.
public enum ScheduleFingerprint {
  public static let property = "X-CHIME-SCHEDULE"

  /// 16 hex digits: FNV-1a (64 bit) of the schedule's canonical text. Not a security measure:
  /// it only tells an edited schedule from an untouched one.
  public static func of(start: CalendarTime?, rules: [String], recurrenceDates: [CalendarTime], exceptionDates: [CalendarTime]) -> String {
    var text = "S" + (start?.description ?? "-")
    for rule in rules { text += "\nR" + rule.uppercased() }
    for date in recurrenceDates { text += "\nD" + date.description }
    for date in exceptionDates { text += "\nX" + date.description }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  public static func of(_ component: CalendarComponent) -> String {
    of(start: component.start, rules: component.rules, recurrenceDates: component.recurrenceDates, exceptionDates: component.exceptionDates)
  }
}

extension CalendarTimes {
  /// The UTC wall time of `instant`, to the second (rounded down): a DTSTAMP.
  public static func utcWall(_ instant: Instant) -> LocalDateTime {
    LocalDateTime(wallSeconds: CivilDate.floorDiv(instant.unixMillis, 1000))
  }
}
