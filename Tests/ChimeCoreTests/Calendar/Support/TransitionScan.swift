import ChimeCore
import Foundation

/// The fires the calendar rule expects around one offset change, by brute force and sharing
/// no code with the engine: it asks Foundation for the zone's offset at every minute from
/// three hours before the change to a day and three hours after it
/// (`TimeZone.secondsFromGMT(for:)`), and derives the fires from that list of (instant, wall
/// time) pairs:
/// - an instant fires when its wall time matches and was not shown before; a wall time shown
///   again fires again when the hour is free, or when the hour is fixed under `.both`;
/// - where the wall clock jumps forward, the matching wall times it jumps over (and that no
///   instant shows) fire at the instant of the jump, once, when the hour is fixed under
///   `.nextValid` and some instant shows their day; otherwise they do not fire.
///
/// Offsets must change on whole minutes (all changes since 1970 do; checked), so the wall time
/// of minute `k` plus `s` seconds is the wall time at that minute plus `s`.
struct TransitionScan {
  /// A pattern in the scan's terms: the time of day a wall time must show, nil = any.
  struct Pattern: CustomStringConvertible {
    var components: CalendarComponents
    var hour: Int?
    var minute: Int?
    var second: Int
    var weekday: Int?

    /// Only the components the property test uses: hour, minute, second, weekday.
    init(_ c: CalendarComponents) {
      precondition(c.year == nil && c.month == nil && c.day == nil && c.weekdayOrdinal == nil
        && c.weekOfMonth == nil && c.weekOfYear == nil && c.yearForWeekOfYear == nil)
      components = c
      weekday = c.weekday
      // Units smaller than the smallest given one are 0; with no time unit, the time is 00:00.
      second = c.second ?? 0
      minute = c.minute ?? (c.second == nil ? 0 : nil)
      hour = c.hour ?? (c.minute == nil && c.second == nil ? 0 : nil)
    }

    var fixesHour: Bool { hour != nil }

    var description: String {
      var parts: [String] = []
      if let v = components.weekday { parts.append("weekday=\(v)") }
      if let v = components.hour { parts.append("hour=\(v)") }
      if let v = components.minute { parts.append("minute=\(v)") }
      if let v = components.second { parts.append("second=\(v)") }
      return parts.joined(separator: ",")
    }
  }

  let zone: TimeZone
  let transition: Int64
  /// The first instant scanned: minute `k` is `first + 60 k`.
  let first: Int64
  /// The wall time (local seconds since 1970-01-01T00:00 local) of each minute.
  let walls: [Int64]
  /// Every wall time of a whole minute that some scanned instant shows.
  let shownWalls: Set<Int64>
  /// Every local day (days since 1970-01-01) that some scanned instant shows.
  let shownDays: Set<Int64>
  /// The weekday (1 = Sunday) of each shown day, from Foundation.
  let weekdays: [Int64: Int]
  /// The last instant the scan can answer for.
  var end: Int64 { first + Int64(walls.count - 1) * 60 }

  init(zone: TimeZone, transition: Int64, before: Int64 = 3 * 3600, after: Int64 = 27 * 3600) {
    precondition(transition % 60 == 0, "offset change off a minute boundary at \(transition)")
    self.zone = zone
    self.transition = transition
    first = transition - before
    var walls: [Int64] = []
    walls.reserveCapacity(Int((before + after) / 60) + 1)
    var previousOffset: Int? = nil
    var u = first
    while u <= transition + after {
      let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(u)))
      if let previousOffset, previousOffset != offset {
        // The change happened at this minute, not inside the one before.
        precondition(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(u - 1))) == previousOffset,
                     "offset change inside the minute before \(u)")
      }
      previousOffset = offset
      walls.append(u + Int64(offset))
      u += 60
    }
    self.walls = walls
    shownWalls = Set(walls)
    let days = Set(walls.map { Self.floorDiv($0, 86_400) })
    shownDays = days
    var gmt = Calendar(identifier: .gregorian)
    gmt.timeZone = TimeZone(secondsFromGMT: 0)!
    var weekdays: [Int64: Int] = [:]
    for day in days {
      weekdays[day] = gmt.component(.weekday, from: Date(timeIntervalSince1970: Double(day) * 86_400))
    }
    self.weekdays = weekdays
  }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }

  func matches(_ p: Pattern, wall: Int64) -> Bool {
    let day = Self.floorDiv(wall, 86_400)
    let secondOfDay = wall - day * 86_400
    if let hour = p.hour, secondOfDay / 3600 != hour { return false }
    if let minute = p.minute, secondOfDay / 60 % 60 != minute { return false }
    if secondOfDay % 60 != Int64(p.second) { return false }
    if let weekday = p.weekday {
      // A day the scan does not show has no weekday here; it cannot match anyway.
      guard let w = weekdays[day] else { return false }
      return w == weekday
    }
    return true
  }

  /// The expected fires (UTC seconds) in `transition - 3h ... limit`, in order.
  func fires(_ p: Pattern, gap: DSTGapPolicy, overlap: DSTOverlapPolicy, through limit: Int64) -> [Int64] {
    precondition(limit <= end, "the scan stops at \(end)")
    let phase = Int64(p.second)
    var found: [Int64] = []
    func fire(_ t: Int64) {
      if found.last != t { found.append(t) }
    }
    var highest = Int64.min
    for k in walls.indices {
      let t = first + Int64(k) * 60 + phase
      if t > limit { break }
      let wall = walls[k] + phase
      if k > 0 {
        // Wall times between the previous minute's and this one's that no instant shows.
        var skipped = walls[k - 1] + phase + 60
        while skipped < wall {
          if !shownWalls.contains(skipped - phase), matches(p, wall: skipped),
             p.fixesHour, gap == .nextValid, shownDays.contains(Self.floorDiv(skipped, 86_400)) {
            // The first instant after the jump: this minute's start (changes fall on minutes).
            fire(first + Int64(k) * 60)
          }
          skipped += 60
        }
      }
      if matches(p, wall: wall) {
        if wall > highest || !p.fixesHour || overlap == .both { fire(t) }
      }
      highest = max(highest, wall)
    }
    return found
  }
}
