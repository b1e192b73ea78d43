import ChimeCore
import Foundation

/// `Date` for instants, in the tests that check ChimeCore against Foundation's calendar and
/// ISO 8601 parsing (ChimeCore itself links no Foundation; ChimeClient has the same for its users).
extension Instant {
  init(_ date: Date) {
    self.init(unixMillis: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  var date: Date { Date(timeIntervalSince1970: Double(unixMillis) / 1000) }
}
