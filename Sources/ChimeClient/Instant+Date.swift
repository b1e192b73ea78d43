public import ChimeCore
public import FoundationEssentials

/// `Date` for the instants of the client's API: ChimeCore links no Foundation, so the
/// conversions live with the programs that use `Date` (the CLI, the benchmark, tests).
extension Instant {
  /// `date` to the nearest millisecond.
  public init(_ date: Date) {
    self.init(unixMillis: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  public var date: Date { Date(timeIntervalSince1970: Double(unixMillis) / 1000) }
}
