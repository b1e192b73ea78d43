/// The search behind `CalendarEngine.nextFire`: walks matching wall times in order and maps
/// each to instants through the zone table, under the calendar rule at clock changes.
///
/// The rule (documented for users on `CalendarEngine`):
/// - A pattern that fixes the hour follows the wall clock, one fire per intended occurrence: a
///   wall time in a gap fires at the gap's end or not at all (`gap`), a repeated one at its
///   first occurrence or at both (`overlap`).
/// - A pattern that leaves the hour free follows real time: it fires at the instants whose wall
///   time matches, so a wall time in a gap does not fire and a repeated one fires at each
///   occurrence, whatever the trigger's policies say.
/// - A local day that no instant shows (the clock jumped over it whole) has no occurrences.
struct FireSearch {
  let pattern: CalendarPattern
  let table: ZoneTable
  /// The policies in force: the trigger's when the pattern fixes the hour; `.skip` and `.both`
  /// (real time) when it leaves the hour free.
  let gap: DSTGapPolicy
  let overlap: DSTOverlapPolicy

  init(pattern: CalendarPattern, table: ZoneTable, gap: DSTGapPolicy, overlap: DSTOverlapPolicy) {
    self.pattern = pattern
    self.table = table
    if pattern.followsRealTime {
      self.gap = .skip
      self.overlap = .both
    } else {
      self.gap = gap
      self.overlap = overlap
    }
  }

  /// Day numbers the engine works in: years 1 through 9999.
  static let firstDay = CivilDate.dayNumber(year: 1, month: 1, day: 1)
  static let lastDay = CivilDate.dayNumber(year: 9999, month: 12, day: 31)
  /// Every pattern of dates repeats after 400 years; one cycle and a bit is enough to find
  /// the next match of a pattern with no fixed year (or to learn that there is none).
  static let horizonDays = CivilDate.daysPerCycle + 400

  enum Kind: Equatable {
    case plain
    /// The wall time fell in a gap; this is the first instant after it.
    case gapEnd
    /// The wall time occurs twice; this is the first occurrence.
    case firstOfTwo
    /// The wall time occurs twice; this is the second occurrence (policy `.both`, or a
    /// pattern that follows real time).
    case secondOfTwo
  }

  /// Matching wall times passed over without a fire, by the rule rather than by the trigger's
  /// own `.skip`: in a gap, for a pattern that follows real time, or on a day the zone skipped.
  struct Dropped: Equatable {
    /// The first and last such wall times (local seconds).
    var first: Int64
    var last: Int64
    /// The first one's day does not exist in the zone.
    var dayMissing: Bool
  }

  struct Found: Equatable {
    /// UTC seconds.
    var instant: Int64
    /// The matched wall time (local seconds).
    var wall: Int64
    var kind: Kind
    /// Matching wall times dropped since the search started, before this one.
    var dropped: Dropped? = nil
  }

  /// The earliest fire at a UTC second strictly after `after`, or nil when there is none
  /// in years 1...9999 (or within 400 years for a pattern without a fixed year).
  ///
  /// Matching wall times are visited in increasing order. The first instant of a wall time
  /// (its first occurrence, or the end of the gap that skipped it) never decreases as the
  /// wall time grows, so the search stops at the first wall time whose first instant is not
  /// earlier than the best fire found. The walk starts at the earliest wall time whose first
  /// instant is after `after` (see `ZoneTable.earliestWall`).
  func next(after: Int64) -> Found? {
    let startWall = table.earliestWall(after: after)
    var day = Int(CivilDate.floorDiv(startWall, CivilDate.secondsPerDay))
    var secondOfDay = Int(startWall - Int64(day) * CivilDate.secondsPerDay)
    if day < Self.firstDay {
      day = Self.firstDay
      secondOfDay = 0
    }
    let hasFixedYear = pattern.year != nil || pattern.yearForWeekOfYear != nil
    let through = hasFixedYear ? Self.lastDay : min(Self.lastDay, day + Self.horizonDays)
    var best: Found? = nil
    var dropped: Dropped? = nil
    while let matched = pattern.nextMatchingDay(from: day, through: through), matched >= day {
      var s = matched == day ? secondOfDay : 0
      // Whether the zone shows `matched` at all; asked only when a wall time of it is skipped.
      var dayShown: Bool? = nil
      while s < 86_400, let time = pattern.nextTime(from: s) {
        let wall = Int64(matched) * CivilDate.secondsPerDay + Int64(time)
        let resolution = table.resolve(wall: wall)
        if let best, resolution.first >= best.instant { return Self.finish(best, dropped) }
        switch resolution {
        case .single(let t):
          if t > after { consider(Found(instant: t, wall: wall, kind: .plain), &best) }
        case .repeated(let first, let second):
          if first > after { consider(Found(instant: first, wall: wall, kind: .firstOfTwo), &best) }
          if overlap == .both, second > after { consider(Found(instant: second, wall: wall, kind: .secondOfTwo), &best) }
        case .skipped(let gapEnd):
          guard gapEnd > after else { break }
          let shown = dayShown ?? table.showsDay(matched)
          dayShown = shown
          if !shown || pattern.followsRealTime {
            // Told in the note of the fire that follows them (once a fire is found, the walk
            // only checks that nothing comes earlier).
            if best == nil {
              if dropped == nil {
                dropped = Dropped(first: wall, last: wall, dayMissing: !shown)
              } else {
                dropped!.last = wall
              }
            }
          } else if gap == .nextValid {
            consider(Found(instant: gapEnd, wall: wall, kind: .gapEnd), &best)
          }
        }
        s = time + 1
      }
      day = matched + 1
      secondOfDay = 0
    }
    return best.map { Self.finish($0, dropped) }
  }

  @inline(__always)
  private func consider(_ candidate: Found, _ best: inout Found?) {
    if best == nil || candidate.instant < best!.instant { best = candidate }
  }

  /// The fire with the wall times dropped before it, if any.
  private static func finish(_ found: Found, _ dropped: Dropped?) -> Found {
    guard let dropped else { return found }
    var found = found
    found.dropped = dropped
    return found
  }
}
