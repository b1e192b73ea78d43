/// A recurrence: an RFC 5545 rule with its start (DTSTART as a local wall time), the zone the
/// wall times are read in, and exclusions (EXDATE) as local wall times.
///
/// What the user typed is kept beside the parsed rule (`ruleText`), so a pending request shows
/// the rule back exactly as given.
public struct Recurrence: Hashable, Sendable {
  /// The rule as given (`FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`).
  public var ruleText: String
  public var rule: RecurrenceRule
  /// DTSTART: the first wall time the rule may produce, and where the parts the rule leaves
  /// out come from (the time of day; the weekday of a WEEKLY rule without BYDAY; the day of a
  /// MONTHLY or YEARLY rule without a day part; the month of a YEARLY one).
  public var start: LocalDateTime
  /// IANA zone name; nil or empty floats with the zone passed to the engine (the daemon's).
  public var timeZone: String?
  /// EXDATE: occurrences whose wall time equals one of these do not fire. They still count
  /// towards COUNT.
  public var exclusions: [LocalDateTime]
  /// The start and the exclusions as given (`2026-12-01T17:00`), shown back by `pending`.
  public var startText: String
  public var exclusionTexts: [String]

  public init(ruleText: String, rule: RecurrenceRule, start: LocalDateTime, timeZone: String?, exclusions: [LocalDateTime] = [],
              startText: String? = nil, exclusionTexts: [String]? = nil) {
    self.ruleText = ruleText
    self.rule = rule
    self.start = start
    self.timeZone = timeZone
    self.exclusions = exclusions
    self.startText = startText ?? start.description
    self.exclusionTexts = exclusionTexts ?? exclusions.map(\.description)
  }

  /// Parses the rule text, the start and the exclusions as the CLI takes them
  /// (`2026-12-01T17:00` or `20261201T170000`).
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_RECURRENCE_RULE` for a rule, start or exclusion that
  ///   does not parse, with `field` + `.rule`, `.start` or `.exclusions`.
  public init(rule text: String, start: String, timeZone: String?, exclusions: [String] = [], field: String = "recurrence") throws(ChimeError) {
    let rule = try RecurrenceRule.parse(text, field: "\(field).rule")
    guard let startTime = LocalDateTime(parsing: start.trimmingWhitespace()) else {
      throw ChimeError(.invalidRecurrenceRule,
        "start \"\(start)\" is not a local date and time: give e.g. 2099-12-01T17:00 (read in the rule's zone, no offset)",
        field: "\(field).start")
    }
    var excluded: [LocalDateTime] = []
    for text in exclusions {
      guard let wall = LocalDateTime(parsing: text.trimmingWhitespace()) else {
        throw ChimeError(.invalidRecurrenceRule,
          "exclusion \"\(text)\" is not a local date and time: give e.g. 2099-12-31T17:00 (an occurrence's wall time, no offset)",
          field: "\(field).exclusions")
      }
      excluded.append(wall)
    }
    self.init(ruleText: text, rule: rule, start: startTime, timeZone: timeZone, exclusions: excluded,
              startText: start, exclusionTexts: exclusions)
  }
}
