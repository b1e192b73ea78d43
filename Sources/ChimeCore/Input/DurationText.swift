/// Parses and prints durations the way people type them: `90s`, `10m`, `2h`, `1h30m`, `1d`,
/// `1.5h`, `250ms`, or a bare number of seconds.
public enum DurationText {
  /// Seconds, or nil when `text` is not a duration. The whole text is read: each number is
  /// decimal digits with at most one point (`1.5`, not `1e3`, `0x10` or `nan`), each followed by
  /// a unit, or one bare number alone.
  public static func parse(_ text: String) -> Double? {
    let s = text.trimmingWhitespace().lowercased()
    guard !s.isEmpty else { return nil }
    if let plain = decimal(s) { return plain <= longest ? plain : nil }
    var total = 0.0
    var number = ""
    var index = s.startIndex
    var sawUnit = false
    while index < s.endIndex {
      let c = s[index]
      if c.isASCII && (c.isNumber || c == ".") {
        number.append(c)
        index = s.index(after: index)
        continue
      }
      var unit = ""
      while index < s.endIndex, s[index].isLetter {
        unit.append(s[index])
        index = s.index(after: index)
      }
      guard let value = decimal(number), let scale = unitSeconds[unit] else { return nil }
      total += value * scale
      number = ""
      sawUnit = true
    }
    guard number.isEmpty, sawUnit, total.isFinite, total <= longest else { return nil }
    return total
  }

  /// `text` as a decimal number (`90`, `1.5`, `.5`, `2.`), nil for anything else.
  private static func decimal<S: StringProtocol>(_ text: S) -> Double? {
    var digits = 0, points = 0
    for c in text.utf8 {
      if c >= 0x30 && c <= 0x39 { digits += 1 } else if c == 0x2E { points += 1 } else { return nil }
    }
    guard digits > 0, points <= 1, let value = Double(String(text)), value.isFinite else { return nil }
    return value
  }

  /// The longest duration read or printed in units (about 31 million years): far past anything
  /// a trigger accepts, and well inside Int64 milliseconds, so no conversion can trap. Found by
  /// fuzzing: `7777…7d` crashed the CLI.
  public static let longest: Double = 1e15

  private static let unitSeconds: [String: Double] = [
    "ms": 0.001, "s": 1, "sec": 1, "secs": 1, "m": 60, "min": 60, "mins": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "d": 86400, "day": 86400, "days": 86400, "w": 604_800,
  ]

  /// Compact text for a span of seconds: `45s`, `9m 5s`, `2h 3m`, `3d 4h`.
  /// The duration exactly, as `parse` reads it back: `1h30m`, `1d2h3m4s`, `250ms`, `0s`.
  public static func exact(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds > 0 else { return seconds < 0 ? "-" + exact(-seconds) : "0s" }
    guard seconds <= longest else { return "\(seconds)s" }
    var whole = Int64(seconds.rounded(.down))
    let millis = (seconds - Double(whole)) * 1000
    var out = ""
    for (unit, size) in [("d", Int64(86400)), ("h", 3600), ("m", 60), ("s", 1)] where whole >= size {
      out += "\(whole / size)\(unit)"
      whole %= size
    }
    if millis > 0 {
      let rounded = (millis * 1000).rounded() / 1000
      out += rounded == rounded.rounded() ? "\(Int64(rounded))ms" : "\(rounded)ms"
    }
    return out.isEmpty ? "0s" : out
  }

  public static func format(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) <= longest else { return "\(abs(seconds))s" }
    let total = Int64(abs(seconds).rounded())
    let days = total / 86400, hours = (total % 86400) / 3600, minutes = (total % 3600) / 60, secs = total % 60
    if days > 0 { return hours > 0 ? "\(days)d \(hours)h" : "\(days)d" }
    if hours > 0 { return minutes > 0 ? "\(hours)h \(minutes)m" : "\(hours)h" }
    if minutes > 0 { return secs > 0 ? "\(minutes)m \(secs)s" : "\(minutes)m" }
    if total == 0 && abs(seconds) > 0 { return PlainText.fixed(abs(seconds), digits: 1) + "s" }
    return "\(secs)s"
  }

  /// `in 9s`, `3m ago`, `now`.
  public static func relative(_ instant: Instant, from now: Instant) -> String {
    let delta = Double(instant.millis(since: now)) / 1000
    if abs(delta) < 0.5 { return "now" }
    return delta > 0 ? "in \(format(delta))" : "\(format(delta)) ago"
  }
}
