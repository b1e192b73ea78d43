import Synchronization

/// A VTIMEZONE whose TZID names no zone (Outlook's "(UTC+01:00) Amsterdam, Berlin, Bern, Rome",
/// a custom "Eastern") is matched to an IANA zone by name or by rules (issue 41): its
/// `X-LIC-LOCATION` (libical and Evolution write the IANA name there), else the first IANA zone
/// whose offsets agree with the definition's from a year before the planning window to three
/// years after it, as far as the definition's changes reach. A zone found so follows tzdata
/// outside that stretch (a VTIMEZONE that lists only a few years' changes, history); without
/// one, the definition's own rules stand.
extension CalendarZones {
  /// The IANA zone `definition` (whose own rules make `own`) stands for around `around` (unix
  /// seconds; nil: by name only), or nil.
  func matching(_ definition: CalendarTimeZone, own: Zone, around: Int64?) -> Zone? {
    if let location = definition.location, let zone = iana(location) { return zone }
    guard let around, !ruleCandidates.isEmpty else { return nil }
    // Whole years, so every item of a scan planned in the same year shares the answer.
    let year = CivilDate.floorDiv(around, 365 * 86_400)
    let key = MatchCache.Key(definition: definition, year: year)
    if let known = matchCache.answer(key) { return known.flatMap(named) }
    // The stretch compared: around the plan, and only where the definition says something
    // (a VTIMEZONE listing a few years' changes is no evidence outside them).
    var from = around - 366 * 86_400, to = around + 3 * 366 * 86_400
    if let first = own.table.transitions.first, let last = own.table.transitions.last {
      from = max(from, first - 86_400)
      to = min(to, last + 86_400)
    }
    guard from < to else {
      matchCache.record(key, nil)
      return nil
    }
    let wanted = Self.changes(own.table, from: from, to: to)
    let start = own.table.offset(at: from)
    var found: String?
    for name in preferred(for: definition.id) {
      guard let zone = named(name), zone.table.offset(at: from) == start, Self.changes(zone.table, from: from, to: to) == wanted else { continue }
      found = name
      break
    }
    matchCache.record(key, found)
    return found.flatMap(named)
  }

  /// The candidates, those whose city the TZID names first ("… Amsterdam, Berlin …" tries
  /// Europe/Amsterdam and Europe/Berlin before the rest), then in their given order.
  func preferred(for tzid: String) -> [String] {
    let text = tzid.lowercased()
    let named = ruleCandidates.filter { name in
      guard let city = name.split(separator: "/").last, city.count >= 3 else { return false }
      return text.contains(String(city.lowercased().map { $0 == "_" ? " " : $0 }))
    }
    return named + ruleCandidates.filter { !named.contains($0) }
  }

  /// Where `table`'s offset changes inside (from, to), and to what.
  static func changes(_ table: ZoneTable, from: Int64, to: Int64) -> [Change] {
    var current = table.offset(at: from)
    var result: [Change] = []
    for (k, t) in table.transitions.enumerated() where t > from && t < to {
      let offset = table.offsets[k + 1]
      guard offset != current else { continue }
      result.append(Change(at: t, offset: offset))
      current = offset
    }
    return result
  }

  struct Change: Equatable {
    var at: Int64
    var offset: Int
  }

  /// IANA zone names from tzdata's `zone1970.tab` (one per region whose clocks have agreed
  /// since 1970, in the file's order), for matching by rules. ChimeCore reads no files: the
  /// caller passes the file's text.
  public static func parseZoneTab(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return fields.count >= 3 ? String(fields[2]) : nil
    }
  }
}

/// What each VTIMEZONE definition matched, shared by the copies of one `CalendarZones`.
final class MatchCache: Sendable {
  struct Key: Hashable {
    var definition: CalendarTimeZone
    var year: Int64
  }

  private let answers = Mutex<[Key: String?]>([:])

  /// The name found before (`.some(nil)`: none matched), or nil when not looked for yet.
  func answer(_ key: Key) -> String?? { answers.withLock { $0[key] } }

  func record(_ key: Key, _ name: String?) {
    answers.withLock { all in
      // A scan meets few definitions; a bound keeps a hostile calendar from growing this.
      if all.count >= 256 { all.removeAll() }
      all[key] = name
    }
  }
}
