/// Turns an item's TZIDs into zones, in this order (issue 41):
/// 1. an IANA name (`Europe/Berlin`), also at the end of a prefixed one
///    (`/mozilla.org/20050126_1/Europe/Berlin`, `/citadel.org/20190914_1/America/New_York`);
/// 2. a Windows name (Outlook's `W. Europe Standard Time`) through CLDR's windowsZones table
///    (`windowsZones`, read by the caller: ChimeCore does no I/O of its own);
/// 3. the item's own VTIMEZONE of that TZID: the IANA zone it names in X-LIC-LOCATION or whose
///    offsets its rules agree with around the planning window (`+Matching`), else its own
///    rules expanded (`CalendarTimeZone.zone`).
/// A TZID none of these know is read in the user's zone, as a floating time, and reported.
public struct CalendarZones: Sendable {
  /// The zone of floating times and all-day dates.
  public var userZone: Zone
  /// Windows zone name → IANA name (CLDR's territory "001" entries).
  public var windowsZones: [String: String]
  /// IANA zones by name: the system's zoneinfo tree unless a test passes its own.
  public var named: @Sendable (String) -> Zone?
  /// IANA zone names a VTIMEZONE's rules are matched against (`parseZoneTab`); none: no
  /// matching by rules.
  public var ruleCandidates: [String]
  let matchCache = MatchCache()

  public init(userZone: Zone, windowsZones: [String: String] = [:], ruleCandidates: [String] = [],
              named: @escaping @Sendable (String) -> Zone? = { Zone.named($0) }) {
    self.userZone = userZone
    self.windowsZones = windowsZones
    self.ruleCandidates = ruleCandidates
    self.named = named
  }

  /// How a TZID was resolved.
  public enum Source: Hashable, Sendable {
    case iana(String)
    case windows(String)
    /// The item's VTIMEZONE, matched to this IANA zone by X-LIC-LOCATION or by its rules.
    case matched(String)
    case definition
    case unknown
  }

  /// The zone a TZID names, or the user's zone (`.unknown`) when nothing knows it. `around`
  /// (unix seconds; nil: no matching by rules) is where the plan is made.
  public func zone(for tzid: String, in item: CalendarItem, around: Int64? = nil) -> (zone: Zone, source: Source) {
    let id = tzid.trimmingWhitespace()
    if let zone = iana(id) { return (zone, .iana(zone.identifier)) }
    if let mapped = windowsZones[id], let zone = named(mapped) { return (zone, .windows(mapped)) }
    if let definition = item.timeZones.first(where: { $0.id == tzid }), let zone = definition.zone() {
      // The definition's own name may still end in an IANA one; caught above.
      if let matched = matching(definition, own: zone, around: around) { return (matched, .matched(matched.identifier)) }
      return (zone, .definition)
    }
    return (userZone, .unknown)
  }

  /// `Europe/Berlin` itself, or the longest tail of a `/`-prefixed name that is a zone.
  func iana(_ id: String) -> Zone? {
    guard !id.isEmpty, id.utf8.count <= 255 else { return nil }
    if let zone = named(id) { return zone }
    let parts = id.split(separator: "/")
    guard parts.count > 1 else { return nil }
    for drop in 1..<parts.count {
      let tail = parts[drop...].joined(separator: "/")
      // A single word (`Berlin`) is never taken from a path: only Area/Location names and UTC.
      guard parts.count - drop >= 2 || tail == "UTC" else { continue }
      if let zone = named(tail) { return zone }
    }
    return nil
  }

  /// Reads CLDR's `windowsZones.xml`: each `<mapZone other="…" territory="001" type="…"/>`
  /// maps a Windows name to its principal IANA zone (the 001 territory's).
  public static func parseWindowsZones(_ xml: String) -> [String: String] {
    var map: [String: String] = [:]
    for element in xml.split(separator: "<").dropFirst() where element.hasPrefix("mapZone ") {
      func attribute(_ name: String) -> String? {
        guard let range = element.firstRange(of: " \(name)=\"") else { return nil }
        let rest = element[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
      }
      guard attribute("territory") == "001", let windows = attribute("other"), let iana = attribute("type") else { continue }
      // `type` may list several zones; the first is the principal one.
      if let first = iana.split(separator: " ").first { map[windows] = String(first) }
    }
    return map
  }
}

extension CalendarTimeZone {
  /// The zone this VTIMEZONE's observances define, transitions from 1900 through 2100 (no
  /// rules past those years), or nil when it has no observance or one's rule does not parse.
  ///
  /// Each observance takes effect at its DTSTART and at each of its RRULE's and RDATEs' wall
  /// times, read with TZOFFSETFROM (RFC 5545 section 3.6.5).
  public func zone() -> Zone? {
    guard !observances.isEmpty, observances.count <= CalendarItem.Limits.observances else { return nil }
    var changes: [(at: Int64, offset: Int)] = []
    let last = LocalDateTime(year: 2100, month: 12, day: 31, hour: 23, minute: 59, second: 59)!
    for observance in observances {
      var walls: [Int64] = [observance.start.wallSeconds]
      for text in observance.rules {
        guard let rule = try? RecurrenceRule.parse(CalendarRules.normalized(text, start: observance.start, isDate: false)) else { return nil }
        let recurrence = Recurrence(ruleText: text, rule: rule, start: observance.start, timeZone: nil)
        // Walls are read in UTC here: the instant is the wall minus TZOFFSETFROM.
        walls += RecurrenceWalk(recurrence, table: Zone.utc.table).occurrences(limit: 500, through: last.wallSeconds).map(\.wall)
      }
      walls += observance.dates.map(\.wallSeconds)
      for wall in walls { changes.append((wall - Int64(observance.offsetFrom), observance.offsetTo)) }
    }
    changes.sort { $0.at < $1.at }
    guard let first = changes.first else { return nil }
    // Before the first change: its TZOFFSETFROM (the offset the zone had).
    let firstFrom = observances.first { $0.start.wallSeconds - Int64($0.offsetFrom) == first.at }?.offsetFrom ?? first.offset
    var transitions: [Int64] = []
    var offsets: [Int] = [firstFrom]
    for change in changes {
      if let t = transitions.last, change.at == t {
        offsets[offsets.count - 1] = change.offset
        continue
      }
      guard change.offset != offsets[offsets.count - 1] else { continue }
      transitions.append(change.at)
      offsets.append(change.offset)
    }
    return Zone(table: ZoneTable(identifier: id, data: TZifData(transitions: transitions, offsets: offsets, footer: nil)))
  }
}
