/// How long a delivered notification is snoozed: 1 minute to 1 week, in whole seconds. Read
/// from the `Snooze` call, a category's snooze durations and `chime snooze ID 10m`; shown on the
/// presenter's snooze buttons ("Snooze 5 min").
public struct SnoozeDuration: Hashable, Sendable, Comparable {
  public let seconds: Int64

  public static let minimumSeconds: Int64 = 60
  public static let maximumSeconds: Int64 = 7 * 24 * 3600
  /// Snooze buttons one category may offer (after its actions).
  public static let perCategoryMax = 5
  /// The duration to use when a category offers none (an alarm snoozed by chimed itself):
  /// GNOME Clocks' 10 minutes.
  public static let standard = SnoozeDuration(unchecked: 600)

  private init(unchecked seconds: Int64) {
    self.seconds = seconds
  }

  /// - Throws: INVALID_ARGUMENT `INVALID_SNOOZE_DURATION` outside 1 minute ... 1 week.
  public init(seconds: Int64, field: String = "duration_seconds") throws(ChimeError) {
    guard seconds >= Self.minimumSeconds, seconds <= Self.maximumSeconds else {
      let given = seconds < 0 ? "\(seconds) seconds" : DurationText.exact(Double(seconds))
      let crossed = seconds < Self.minimumSeconds ? "shorter than the shortest snooze, 1 minute" : "longer than the longest snooze, 1 week"
      throw ChimeError(.invalidSnoozeDuration, "\(given) is \(crossed) (60 to 604800 seconds)", field: field)
    }
    self.seconds = seconds
  }

  /// Reads `text` in the command line's duration grammar (`DurationInput`: `10m`, `1h30m`,
  /// `1w`; a unit required), whole seconds only.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SNOOZE_DURATION` for text that is not a duration, a
  ///   bare number, a fraction of a second, or one outside 1 minute ... 1 week (the message
  ///   names the bound crossed).
  public init(parsing text: String, field: String = "duration") throws(ChimeError) {
    let value: Double
    do {
      value = try DurationInput.parse(text, .snooze)
    } catch {
      throw ChimeError(.invalidSnoozeDuration, error.message, field: field)
    }
    try self.init(seconds: Int64(value), field: field)
  }

  /// Compact text for the duration, as `DurationText.exact` writes it: `5m`, `1h30m`, `7d`.
  public var text: String { DurationText.exact(Double(seconds)) }

  /// A button's label: "Snooze 5 min", "Snooze 1 h", "Snooze 1 h 30 min", "Snooze 2 days".
  public var buttonTitle: String { "Snooze " + spoken }

  /// "5 min", "1 h 30 min", "1 day", "2 days 3 h".
  public var spoken: String {
    let days = seconds / 86400, hours = seconds % 86400 / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
    var parts: [String] = []
    if days > 0 { parts.append(days == 1 ? "1 day" : "\(days) days") }
    if hours > 0 { parts.append("\(hours) h") }
    if minutes > 0 { parts.append("\(minutes) min") }
    if rest > 0 { parts.append("\(rest) s") }
    return parts.joined(separator: " ")
  }

  public static func < (a: SnoozeDuration, b: SnoozeDuration) -> Bool { a.seconds < b.seconds }

  /// Checks a category's snooze durations: each in bounds, none twice, at most `perCategoryMax`.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SNOOZE_DURATION` or `TOO_MANY_SNOOZE_DURATIONS`.
  public static func validateOffered(_ seconds: [Int64], field: String) throws(ChimeError) {
    guard seconds.count <= perCategoryMax else {
      throw ChimeError(.tooManySnoozeDurations, "a category offers at most \(perCategoryMax) snooze durations, not \(seconds.count)",
                       field: field)
    }
    var seen: Set<Int64> = []
    for (i, value) in seconds.enumerated() {
      _ = try SnoozeDuration(seconds: value, field: "\(field)[\(i)]")
      guard seen.insert(value).inserted else {
        throw ChimeError(.tooManySnoozeDurations, "snooze duration \(DurationText.exact(Double(value))) is offered twice",
                         field: "\(field)[\(i)]")
      }
    }
  }
}
