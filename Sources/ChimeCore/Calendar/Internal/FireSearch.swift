/// The search behind `CalendarEngine.nextFire`: walks matching wall times in order and maps
/// each to instants through the zone table, under the trigger's DST policies.
struct FireSearch {
  let pattern: CalendarPattern
  let table: ZoneTable
  let gap: DSTGapPolicy
  let overlap: DSTOverlapPolicy

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
    /// The wall time occurs twice; this is the second occurrence (policy `.both`).
    case secondOfTwo
  }

  struct Found: Equatable {
    /// UTC seconds.
    var instant: Int64
    /// The matched wall time (local seconds).
    var wall: Int64
    var kind: Kind
  }

  /// The earliest fire at a UTC second strictly after `after`, or nil when there is none
  /// in years 1...9999 (or within 400 years for a pattern without a fixed year).
  ///
  /// Matching wall times are visited in increasing order. The first instant of a wall time
  /// (its first occurrence, or the end of the gap that skipped it) never decreases as the
  /// wall time grows, so the search stops at the first wall time whose first instant is not
  /// earlier than the best fire found. The walk starts at the earliest wall time any instant
  /// after `after` shows, which is before `after`'s own wall time only when the clock is set
  /// back soon (the second occurrence of a repeated wall time can then still be ahead).
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
    while let matched = pattern.nextMatchingDay(from: day, through: through), matched >= day {
      var s = matched == day ? secondOfDay : 0
      while s < 86_400, let time = pattern.nextTime(from: s) {
        let wall = Int64(matched) * CivilDate.secondsPerDay + Int64(time)
        let resolution = table.resolve(wall: wall)
        if let best, resolution.first >= best.instant { return best }
        switch resolution {
        case .single(let t):
          if t > after { consider(Found(instant: t, wall: wall, kind: .plain), &best) }
        case .repeated(let first, let second):
          if first > after { consider(Found(instant: first, wall: wall, kind: .firstOfTwo), &best) }
          if overlap == .both, second > after { consider(Found(instant: second, wall: wall, kind: .secondOfTwo), &best) }
        case .skipped(let gapEnd):
          if gap == .nextValid, gapEnd > after { consider(Found(instant: gapEnd, wall: wall, kind: .gapEnd), &best) }
        }
        s = time + 1
      }
      day = matched + 1
      secondOfDay = 0
    }
    return best
  }

  @inline(__always)
  private func consider(_ candidate: Found, _ best: inout Found?) {
    if best == nil || candidate.instant < best!.instant { best = candidate }
  }

  /// The note a fire carries when a clock change decided it; nil for a plain fire.
  func note(for found: Found) -> String? {
    let wallDay = Int(CivilDate.floorDiv(found.wall, CivilDate.secondsPerDay))
    let wallTime = WallTimeFormat.time(Int(found.wall - Int64(wallDay) * CivilDate.secondsPerDay))
    let wallDate = WallTimeFormat.date(wallDay)
    let offset = table.offset(at: found.instant)
    switch found.kind {
    case .plain:
      return nil
    case .gapEnd:
      let local = found.instant + Int64(offset)
      let localDay = Int(CivilDate.floorDiv(local, CivilDate.secondsPerDay))
      var at = WallTimeFormat.time(Int(local - Int64(localDay) * CivilDate.secondsPerDay))
      if localDay != wallDay { at = WallTimeFormat.date(localDay) + " " + at }
      return "\(wallTime) does not exist on \(wallDate) (DST gap); fires at \(at) \(WallTimeFormat.offset(offset))"
    case .firstOfTwo where overlap == .first:
      return "\(wallTime) occurs twice on \(wallDate) (DST overlap); fires once, at the first (\(WallTimeFormat.offset(offset)))"
    case .firstOfTwo:
      return "\(wallTime) occurs twice on \(wallDate) (DST overlap); fires at both, this is the first (\(WallTimeFormat.offset(offset)))"
    case .secondOfTwo:
      return "\(wallTime) occurs twice on \(wallDate) (DST overlap); fires at both, this is the second (\(WallTimeFormat.offset(offset)))"
    }
  }

  func fireDate(_ found: Found) -> FireDate {
    FireDate(
      instant: Instant(unixMillis: found.instant * 1000),
      utcOffsetSeconds: table.offset(at: found.instant),
      zoneIdentifier: table.identifier,
      dstNote: note(for: found)
    )
  }
}
