/// The one grammar for a duration typed on the command line (`chime add --in`, `--ring`,
/// `--missed`, `--timeout`, `chime snooze ID 10m`, `respond --snooze`, `dnd on --until 1h`, a
/// category's snooze list): `DurationText`'s units (`250ms`, `90s`, `10m`, `2h`, `1h30m`, `1d`,
/// `1w`), a unit always required. A bare number is refused with a hint (`10`: say 10s or 10m),
/// since whether it means seconds or minutes is a guess; only `0`, where zero means something
/// (`--timeout 0`, no deadline), is read without one. A refusal says which bound was crossed.
public enum DurationInput {
  /// Why a text was refused, as one sentence a user can act on.
  public struct Refusal: Error, Hashable, Sendable {
    public let message: String
  }

  /// What a duration may be, and what to call it in a refusal.
  public struct Bounds: Hashable, Sendable {
    /// What the duration is of, for "longer than the longest snooze".
    public let noun: String
    /// Seconds, inclusive; nil for any positive duration.
    public let shortest: Double?
    /// Seconds, inclusive; nil for no bound below `DurationText.longest`.
    public let longest: Double?
    /// A fraction of a second is refused.
    public let wholeSeconds: Bool
    /// `0` is accepted, bare or with a unit.
    public let allowsZero: Bool

    public init(noun: String, shortest: Double? = nil, longest: Double? = nil, wholeSeconds: Bool = false, allowsZero: Bool = false) {
      self.noun = noun
      self.shortest = shortest
      self.longest = longest
      self.wholeSeconds = wholeSeconds
      self.allowsZero = allowsZero
    }

    /// `chime snooze`, `respond --snooze`, a category's snooze buttons: 1 minute to 1 week.
    public static let snooze = Bounds(noun: "snooze", shortest: Double(SnoozeDuration.minimumSeconds),
                                      longest: Double(SnoozeDuration.maximumSeconds), wholeSeconds: true)
  }

  /// The duration in seconds.
  ///
  /// - Throws: `Refusal` for a bare number (other than an allowed 0), text that is not a
  ///   duration, a negative one, zero where it is not allowed, a fraction where whole seconds
  ///   are, or one outside `bounds` (naming the bound).
  public static func parse(_ text: String, _ bounds: Bounds) throws(Refusal) -> Double {
    let trimmed = text.trimmingWhitespace()
    let unsigned = trimmed.hasPrefix("-") ? String(trimmed.dropFirst()) : trimmed
    let bare = !unsigned.isEmpty && unsigned.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    if bare, bounds.allowsZero, let value = DurationText.parse(unsigned), value == 0, !trimmed.hasPrefix("-") { return 0 }
    if bare, DurationText.parse(unsigned) != nil {
      throw Refusal(message: "\(trimmed) needs a unit: say \(unsigned)s or \(unsigned)m")
    }
    guard let seconds = DurationText.parse(unsigned) else {
      throw Refusal(message: "\"\(text)\" is not a duration: write e.g. 90s, 10m, 2h, 1h30m or 1d")
    }
    if trimmed.hasPrefix("-") { throw Refusal(message: "\(trimmed) is negative: give a positive duration, how long from now (\(unsigned))") }
    if seconds == 0 {
      if bounds.allowsZero { return 0 }
      throw Refusal(message: "\(trimmed) is no time at all: give a positive duration")
    }
    if bounds.wholeSeconds, seconds != seconds.rounded() {
      throw Refusal(message: "\(trimmed) is not a whole number of seconds: a \(bounds.noun) is counted in whole seconds")
    }
    if let longest = bounds.longest, seconds > longest {
      throw Refusal(message: "\(trimmed) is longer than the longest \(bounds.noun), \(spoken(longest))")
    }
    if let shortest = bounds.shortest, seconds < shortest {
      throw Refusal(message: "\(trimmed) is shorter than the shortest \(bounds.noun), \(spoken(shortest))")
    }
    return seconds
  }

  /// A bound in words: `1 week`, `30 minutes`, `5 seconds`, `90 seconds`.
  public static func spoken(_ seconds: Double) -> String {
    let whole = Int64(seconds.rounded())
    for (size, unit) in [(Int64(604_800), "week"), (86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")]
    where whole >= size && whole % size == 0 {
      let n = whole / size
      return n == 1 ? "1 \(unit)" : "\(n) \(unit)s"
    }
    return DurationText.exact(seconds)
  }
}
