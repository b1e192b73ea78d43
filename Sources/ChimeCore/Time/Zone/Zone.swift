/// A time zone: an identifier and its offsets, from TZif data (`ZoneDirectory` reads the
/// system's) or fixed.
public struct Zone: Hashable, Sendable, CustomStringConvertible {
  /// The name the zone was asked for (`Europe/Berlin`, `UTC`).
  public var identifier: String { table.identifier }
  let table: ZoneTable

  /// A zone from a TZif file's bytes.
  public init(identifier: String, tzif: [UInt8]) throws(TZifError) {
    self.table = ZoneTable(identifier: identifier, data: try TZif.parse(tzif))
  }

  init(table: ZoneTable) {
    self.table = table
  }

  /// UTC, built in (known with no zoneinfo files).
  public static let utc = Zone(table: ZoneTable(identifier: "UTC", fixed: 0))

  /// The zone called `id` in the system's zoneinfo tree (`ZoneDirectory.system`), or nil.
  public static func named(_ id: String) -> Zone? {
    ZoneDirectory.system.zone(named: id)
  }

  /// Seconds east of UTC at `instant`.
  public func secondsFromUTC(at instant: Instant) -> Int {
    table.offset(at: CivilDate.floorDiv(instant.unixMillis, 1000))
  }

  public var description: String { identifier }

  public static func == (a: Zone, b: Zone) -> Bool {
    a.identifier == b.identifier
      && (a.table === b.table || (a.table.transitions == b.table.transitions && a.table.offsets == b.table.offsets))
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}
