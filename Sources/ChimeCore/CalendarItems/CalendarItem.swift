/// One iCalendar item as Chime reads it (a vdir file: one VCALENDAR holding one event or to-do,
/// its overridden occurrences, and the VTIMEZONEs they name). A pure value: ChimeCalendar fills
/// it from libical's parse; the alarm planner (`CalendarAlarmPlanner`) reads it.
///
/// Only what alarms need is kept. Texts are unescaped (libical undoes RFC 5545's `\,` `\n`).
public struct CalendarItem: Hashable, Sendable {
  public var components: [CalendarComponent]
  /// The item's VTIMEZONE definitions, by TZID.
  public var timeZones: [CalendarTimeZone]

  public init(components: [CalendarComponent] = [], timeZones: [CalendarTimeZone] = []) {
    self.components = components
    self.timeZones = timeZones
  }

  /// Limits on what one item may hold (untrusted input: a synced file).
  public enum Limits {
    /// Bytes of one item file.
    public static let itemBytes = 1 << 20
    /// VEVENT and VTODO components in one item (a master and its overrides).
    public static let components = 1000
    /// VALARMs per component.
    public static let alarmsPerComponent = 32
    /// RDATE plus EXDATE values per component.
    public static let datesPerComponent = 1000
    /// REPEAT of one alarm.
    public static let repeats = 100
    /// VTIMEZONEs per item and observances per VTIMEZONE.
    public static let timeZones = 50
    public static let observances = 200
    /// Occurrences looked at per component and window.
    public static let occurrencesPerWindow = 10_000
  }
}

/// A VEVENT or VTODO.
public struct CalendarComponent: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    case event = "VEVENT"
    case todo = "VTODO"
  }

  public var kind: Kind
  public var uid: String
  public var summary: String?
  public var location: String?
  public var start: CalendarTime?
  /// DTEND (VEVENT).
  public var end: CalendarTime?
  /// DUE (VTODO).
  public var due: CalendarTime?
  public var duration: CalendarDuration?
  /// RRULE text as libical writes it back (`FREQ=WEEKLY;BYDAY=MO`), read by `RecurrenceRule.parse`.
  public var rules: [String]
  public var recurrenceDates: [CalendarTime]
  public var exceptionDates: [CalendarTime]
  /// RECURRENCE-ID: this component overrides the occurrence that started there.
  public var recurrenceID: CalendarTime?
  /// RECURRENCE-ID;RANGE=THISANDFUTURE: it overrides that occurrence and every later one.
  public var thisAndFuture: Bool
  /// STATUS is CANCELLED: the occurrence (or, on the master, the series) does not take place.
  public var isCancelled: Bool
  /// Thunderbird's X-MOZ-LASTACK: alarms up to this instant were dismissed.
  public var lastAcknowledged: Instant?
  /// SEQUENCE: of two revisions of one component in an item, the higher is the current one.
  public var sequence: Int = 0
  /// Thunderbird's X-MOZ-SNOOZE-TIME: a snoozed alarm of a component that does not recur comes
  /// back at this instant.
  public var snoozedUntil: Instant?
  /// Thunderbird's X-MOZ-SNOOZE-TIME-<RECURRENCE-ID in microseconds>: the same for one
  /// occurrence of a series, by its original start (UTC seconds).
  public var occurrenceSnoozes: [Int64: Instant] = [:]
  public var alarms: [CalendarAlarm]
  /// Its position among the item's VEVENTs and VTODOs, from 0 in text order (the planner sets
  /// it from `CalendarItem.components`, which keeps that order).
  public var index: Int = 0

  public init(kind: Kind, uid: String, summary: String? = nil, location: String? = nil, start: CalendarTime? = nil,
              end: CalendarTime? = nil, due: CalendarTime? = nil, duration: CalendarDuration? = nil, rules: [String] = [],
              recurrenceDates: [CalendarTime] = [], exceptionDates: [CalendarTime] = [], recurrenceID: CalendarTime? = nil,
              thisAndFuture: Bool = false, isCancelled: Bool = false, lastAcknowledged: Instant? = nil, alarms: [CalendarAlarm] = []) {
    self.kind = kind
    self.uid = uid
    self.summary = summary
    self.location = location
    self.start = start
    self.end = end
    self.due = due
    self.duration = duration
    self.rules = rules
    self.recurrenceDates = recurrenceDates
    self.exceptionDates = exceptionDates
    self.recurrenceID = recurrenceID
    self.thisAndFuture = thisAndFuture
    self.isCancelled = isCancelled
    self.lastAcknowledged = lastAcknowledged
    self.alarms = alarms
  }
}

/// A DATE or DATE-TIME value of RFC 5545 (section 3.3.4, 3.3.5) with how it is to be read.
public struct CalendarTime: Hashable, Sendable, CustomStringConvertible {
  public enum Form: Hashable, Sendable {
    /// `19980119T070000Z`.
    case utc
    /// `TZID=Europe/Berlin:19980119T020000`: read in the named zone (IANA, a VTIMEZONE of the
    /// item, or a Windows name).
    case zoned(String)
    /// `19980118T230000`: read in the user's zone.
    case floating
    /// `VALUE=DATE:19970714`: a whole day in the user's zone; `wall` is its 00:00.
    case date
  }

  public var wall: LocalDateTime
  public var form: Form

  public init(_ wall: LocalDateTime, _ form: Form) {
    self.wall = wall
    self.form = form
  }

  public var isDate: Bool { form == .date }

  public var description: String {
    switch form {
    case .utc: wall.description + "Z"
    case .zoned(let id): wall.description + " " + id
    case .floating: wall.description
    case .date: String(wall.description.prefix(10))
    }
  }
}

/// An RFC 5545 duration (section 3.3.6): weeks and days are nominal (a day is a calendar day,
/// 23 or 25 hours across a clock change), hours, minutes and seconds exact.
public struct CalendarDuration: Hashable, Sendable {
  /// Nominal days (weeks count 7), signed.
  public var days: Int
  /// Exact seconds, signed.
  public var seconds: Int

  public init(days: Int = 0, seconds: Int = 0) {
    self.days = days
    self.seconds = seconds
  }

  public var isZero: Bool { days == 0 && seconds == 0 }
}

/// A VALARM (RFC 5545 section 3.6.6; RFC 9074's ACKNOWLEDGED).
public struct CalendarAlarm: Hashable, Sendable {
  public enum Action: Hashable, Sendable {
    case display
    case audio
    case email
    case procedure
    /// Another action (`X-…`, RFC 9074's NONE): never notified.
    case other(String)
  }

  public enum Trigger: Hashable, Sendable {
    /// `TRIGGER:-PT15M`, relative to the start, or to the end (`RELATED=END`; a to-do's DUE).
    case relative(CalendarDuration, toEnd: Bool)
    /// `TRIGGER;VALUE=DATE-TIME:19980101T050000Z`.
    case absolute(Instant)
  }

  public var action: Action
  public var trigger: Trigger
  /// REPEAT: how many more times after the first.
  public var repeatCount: Int
  /// DURATION: the time between repeats.
  public var repeatInterval: CalendarDuration?
  public var description: String?
  /// ATTACH's value (a URI) of an AUDIO alarm.
  public var attachment: String?
  /// ACKNOWLEDGED (RFC 9074).
  public var acknowledged: Instant?
  /// Its position among its component's VALARMs in the text, from 0, counting those the reader
  /// left out (nil: its position in `CalendarComponent.alarms`).
  public var index: Int?

  public init(action: Action, trigger: Trigger, repeatCount: Int = 0, repeatInterval: CalendarDuration? = nil,
              description: String? = nil, attachment: String? = nil, acknowledged: Instant? = nil) {
    self.action = action
    self.trigger = trigger
    self.repeatCount = repeatCount
    self.repeatInterval = repeatInterval
    self.description = description
    self.attachment = attachment
    self.acknowledged = acknowledged
  }

  /// The local file an AUDIO alarm's ATTACH names (`file:///usr/share/sounds/x.oga` or an
  /// absolute path), or nil: a remote or named sound plays the default one.
  public var soundFile: String? {
    guard action == .audio, let uri = attachment else { return nil }
    if uri.hasPrefix("/") { return uri }
    guard uri.lowercased().hasPrefix("file://") else { return nil }
    let rest = uri.dropFirst(7)
    // `file:///path` and `file://localhost/path`; another host is not local.
    if rest.hasPrefix("/") { return CalendarText.percentDecoded(String(rest)) }
    if rest.lowercased().hasPrefix("localhost/") { return CalendarText.percentDecoded(String(rest.dropFirst(9))) }
    return nil
  }
}

/// A VTIMEZONE: its TZID and observances (STANDARD and DAYLIGHT sub-components).
public struct CalendarTimeZone: Hashable, Sendable {
  public struct Observance: Hashable, Sendable {
    public var isDaylight: Bool
    /// DTSTART: the wall time (in `offsetFrom`) the observance first takes effect.
    public var start: LocalDateTime
    public var offsetFrom: Int
    public var offsetTo: Int
    public var rules: [String]
    /// RDATE wall times (in `offsetFrom`); a UTC one is kept as its wall time plus `offsetFrom`.
    public var dates: [LocalDateTime]

    public init(isDaylight: Bool, start: LocalDateTime, offsetFrom: Int, offsetTo: Int, rules: [String] = [], dates: [LocalDateTime] = []) {
      self.isDaylight = isDaylight
      self.start = start
      self.offsetFrom = offsetFrom
      self.offsetTo = offsetTo
      self.rules = rules
      self.dates = dates
    }
  }

  public var id: String
  public var observances: [Observance]
  /// X-LIC-LOCATION: the IANA name libical and Evolution give the zone they define.
  public var location: String?

  public init(id: String, observances: [Observance], location: String? = nil) {
    self.id = id
    self.observances = observances
    self.location = location
  }
}

enum CalendarText {
  /// `%20` → space; a malformed escape is kept as written.
  static func percentDecoded(_ s: String) -> String {
    var out: [UInt8] = []
    let b = Array(s.utf8)
    var i = 0
    func hex(_ c: UInt8) -> UInt8? {
      switch c {
      case 0x30...0x39: c - 0x30
      case 0x41...0x46: c - 0x41 + 10
      case 0x61...0x66: c - 0x61 + 10
      default: nil
      }
    }
    while i < b.count {
      if b[i] == 0x25, i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]) {
        out.append(h << 4 | l)
        i += 3
      } else {
        out.append(b[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// Conversions between calendar wall times and instants that readers of items need.
public enum CalendarTimes {
  /// `wall` read as UTC: seconds since 1970-01-01T00:00:00Z.
  public static func unixSeconds(_ wall: LocalDateTime) -> Int64 { wall.wallSeconds }
}
