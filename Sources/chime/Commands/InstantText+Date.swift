import ChimeCore
import FoundationEssentials

/// `Date` for `--at`, `--until` and `next --after` (ChimeCore reads instants without Foundation).
extension InstantText.Parsed {
  /// The parsed instant, its fraction of a second included.
  var date: Date { Date(timeIntervalSince1970: Double(unixSeconds)).addingTimeInterval(fraction) }
}

extension CalendarSpec {
  /// The components of `date` in UTC, year to second (fractions dropped).
  static func instant(_ date: Date) -> CalendarComponents {
    instant(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
  }
}
