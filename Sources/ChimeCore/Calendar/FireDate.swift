/// One computed fire of a calendar trigger: the instant, the zone it was computed in, and a
/// note when a DST gap or overlap decided it.
public struct FireDate: Hashable, Sendable, CustomStringConvertible {
  public var instant: Instant
  /// The zone's offset from UTC at `instant`, in seconds east.
  public var utcOffsetSeconds: Int
  /// The zone used: the trigger's own, or the floating zone passed in.
  public var zoneIdentifier: String
  /// Set when a clock change decided this fire, e.g.
  /// `02:30 does not exist on 2027-03-28 (DST gap); fires at 03:00 +02:00`.
  public var dstNote: String?

  public init(instant: Instant, utcOffsetSeconds: Int, zoneIdentifier: String, dstNote: String? = nil) {
    self.instant = instant
    self.utcOffsetSeconds = utcOffsetSeconds
    self.zoneIdentifier = zoneIdentifier
    self.dstNote = dstNote
  }

  /// ISO 8601 in UTC, e.g. `2027-03-28T01:00:00Z`.
  public var utcISO8601: String {
    WallTimeFormat.iso8601(wall: CivilDate.floorDiv(instant.unixMillis, 1000), offset: nil)
  }

  /// ISO 8601 wall time in the zone with its offset, e.g. `2027-03-28T03:00:00+02:00`.
  public var localISO8601: String {
    let seconds = CivilDate.floorDiv(instant.unixMillis, 1000)
    return WallTimeFormat.iso8601(wall: seconds + Int64(utcOffsetSeconds), offset: utcOffsetSeconds)
  }

  public var description: String {
    var s = "\(utcISO8601) (\(localISO8601) \(zoneIdentifier))"
    if let dstNote { s += ": " + dstNote }
    return s
  }
}
