/// RRULE text from calendars, made readable by `RecurrenceRule.parse`.
enum CalendarRules {
  /// Rewrites a DATE `UNTIL` (`UNTIL=20271231`, which calendar programs write for all-day
  /// events and, against RFC 5545 section 3.3.10, sometimes for timed ones) as a local
  /// DATE-TIME: the day's 00:00 for an all-day start (that day's occurrence is the last), its
  /// 23:59:59 for a timed one (occurrences through that day). Everything else is left alone.
  static func normalized(_ text: String, start: LocalDateTime, isDate: Bool) -> String {
    var parts: [String] = []
    for part in text.split(separator: ";", omittingEmptySubsequences: false) {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2, pair[0].trimmingWhitespace().uppercased() == "UNTIL" {
        let value = pair[1].trimmingWhitespace()
        if value.utf8.count == 8, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
          parts.append("UNTIL=" + value + (isDate ? "T000000" : "T235959"))
          continue
        }
      }
      parts.append(String(part))
    }
    return parts.joined(separator: ";")
  }
}
