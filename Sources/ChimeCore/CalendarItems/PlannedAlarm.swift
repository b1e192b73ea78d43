/// One alarm notification an item asks for: which occurrence, when, how.
public struct PlannedAlarm: Hashable, Sendable {
  /// Which occurrence of a recurring component: its original start (RECURRENCE-ID's value).
  public enum OccurrenceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    case instant(Instant)
    /// An all-day occurrence: its date (year, month, day at 00:00).
    case date(LocalDateTime)

    /// `2026-03-29T01:30:00Z` (UTC), or `2026-03-29` for an all-day one.
    public var description: String {
      switch self {
      case .instant(let instant): String(instant.description.prefix(19)) + "Z"
      case .date(let wall): String(wall.description.prefix(10))
      }
    }

    public static func < (a: OccurrenceID, b: OccurrenceID) -> Bool { a.description < b.description }
  }

  public enum Action: Hashable, Sendable {
    case display
    /// A sound: the local file AUDIO's ATTACH names, or nil for the default sound.
    case audio(soundFile: String?)

    /// `DISPLAY` or `AUDIO`, as RFC 5545 names them.
    public var name: String {
      switch self {
      case .display: "DISPLAY"
      case .audio: "AUDIO"
      }
    }
  }

  public var uid: String
  /// nil for a component that does not recur.
  public var recurrenceID: OccurrenceID?
  public var summary: String?
  /// LOCATION of the occurrence's component.
  public var location: String?
  public var alarmDescription: String?
  public var at: Instant
  public var action: Action
  /// 0 for the alarm itself, 1...REPEAT for its repeats.
  public var repeatIndex: Int
  public var componentKind: CalendarComponent.Kind
  /// When the occurrence starts (nil: a to-do with only a DUE).
  public var occurrenceStart: Instant?
  /// When it ends (DTEND, DUE or start plus DURATION; nil when it has none).
  public var occurrenceEnd: Instant?
  /// Where its VALARM is in the item's text, for writing back what the user did with it
  /// (`AlarmWriteBack.Target`): the position of its VEVENT or VTODO among the item's, and of
  /// the VALARM among that component's, both from 0 in text order.
  public var componentIndex: Int = 0
  public var alarmIndex: Int = 0

  public init(uid: String, recurrenceID: OccurrenceID?, summary: String?, alarmDescription: String? = nil, at: Instant, action: Action,
              repeatIndex: Int = 0, componentKind: CalendarComponent.Kind = .event, occurrenceStart: Instant? = nil,
              location: String? = nil, occurrenceEnd: Instant? = nil) {
    self.uid = uid
    self.recurrenceID = recurrenceID
    self.summary = summary
    self.alarmDescription = alarmDescription
    self.at = at
    self.action = action
    self.repeatIndex = repeatIndex
    self.componentKind = componentKind
    self.occurrenceStart = occurrenceStart
    self.location = location
    self.occurrenceEnd = occurrenceEnd
  }
}

extension PlannedAlarm {
  /// The order of a plan's alarms: by instant, then UID, occurrence and repeat.
  static func inPlanOrder(_ a: PlannedAlarm, _ b: PlannedAlarm) -> Bool {
    (a.at, a.uid, a.recurrenceID?.description ?? "", a.repeatIndex) < (b.at, b.uid, b.recurrenceID?.description ?? "", b.repeatIndex)
  }
}

/// What the planner found in an item for a window.
public struct AlarmPlan: Hashable, Sendable {
  /// DISPLAY and AUDIO alarms in the window, sorted by `at` (then UID, occurrence, repeat).
  public var alarms: [PlannedAlarm]
  /// DISPLAY and AUDIO alarms in the window that an RFC 9074 `ACKNOWLEDGED` (or Thunderbird's
  /// `X-MOZ-LASTACK`) at or after their instant leaves out: dismissed on some device, so one
  /// still showing here is withdrawn. Sorted as `alarms`.
  public var acknowledged: [PlannedAlarm] = []
  /// Alarms in the window Chime does not notify, by action (`EMAIL`, `PROCEDURE`, `X-…`).
  public var ignored: [String: Int]
  /// What was skipped or read leniently, one sentence each (an RRULE Chime cannot read, an
  /// unknown TZID, the occurrence limit).
  public var problems: [String]

  public init(alarms: [PlannedAlarm] = [], ignored: [String: Int] = [:], problems: [String] = []) {
    self.alarms = alarms
    self.ignored = ignored
    self.problems = problems
  }
}
