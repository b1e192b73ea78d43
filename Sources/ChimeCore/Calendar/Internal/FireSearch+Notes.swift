extension FireSearch {
  /// The note a fire carries when a clock change decided it, or dropped matching wall times
  /// just before it; nil for a plain fire.
  func note(for found: Found) -> String? {
    let wallDay = Int(CivilDate.floorDiv(found.wall, CivilDate.secondsPerDay))
    let wallTime = WallTimeFormat.time(Int(found.wall - Int64(wallDay) * CivilDate.secondsPerDay))
    let wallDate = WallTimeFormat.date(wallDay)
    let offset = WallTimeFormat.offset(table.offset(at: found.instant))
    var notes: [String] = []
    if let dropped = found.dropped { notes.append(Self.note(for: dropped)) }
    switch found.kind {
    case .plain:
      break
    case .gapEnd:
      let local = found.instant + Int64(table.offset(at: found.instant))
      let localDay = Int(CivilDate.floorDiv(local, CivilDate.secondsPerDay))
      var at = WallTimeFormat.time(Int(local - Int64(localDay) * CivilDate.secondsPerDay))
      if localDay != wallDay { at = WallTimeFormat.date(localDay) + " " + at }
      notes.append("\(wallTime) does not exist on \(wallDate) (DST gap); fires at \(at) \(offset)")
    case .firstOfTwo where pattern.followsRealTime:
      notes.append("\(wallTime) occurs twice on \(wallDate) (DST overlap); the hour is free, so it fires at both: this is the first (\(offset))")
    case .secondOfTwo where pattern.followsRealTime:
      notes.append("\(wallTime) occurs twice on \(wallDate) (DST overlap); the hour is free, so it fires at both: this is the second (\(offset))")
    case .firstOfTwo where overlap == .first:
      notes.append("\(wallTime) occurs twice on \(wallDate) (DST overlap); fires once, at the first (\(offset))")
    case .firstOfTwo:
      notes.append("\(wallTime) occurs twice on \(wallDate) (DST overlap); fires at both, this is the first (\(offset))")
    case .secondOfTwo:
      notes.append("\(wallTime) occurs twice on \(wallDate) (DST overlap); fires at both, this is the second (\(offset))")
    }
    return notes.isEmpty ? nil : notes.joined(separator: "; ")
  }

  /// `02:30 does not exist on 2012-03-11 (DST gap); the hour is free, so it does not fire`,
  /// `2011-12-30 does not exist (the clock skipped it): no fire at 09:00 that day`.
  static func note(for dropped: Dropped) -> String {
    let firstDay = Int(CivilDate.floorDiv(dropped.first, CivilDate.secondsPerDay))
    let lastDay = Int(CivilDate.floorDiv(dropped.last, CivilDate.secondsPerDay))
    let firstTime = WallTimeFormat.time(Int(dropped.first - Int64(firstDay) * CivilDate.secondsPerDay))
    let lastTime = WallTimeFormat.time(Int(dropped.last - Int64(lastDay) * CivilDate.secondsPerDay))
    let one = dropped.first == dropped.last
    if dropped.dayMissing && firstDay == lastDay {
      let times = one ? "at \(firstTime)" : "from \(firstTime) to \(lastTime)"
      return "\(WallTimeFormat.date(firstDay)) does not exist (the clock skipped it): no fire \(times) that day"
    }
    let span: String
    if one {
      span = "\(firstTime) does not exist on \(WallTimeFormat.date(firstDay))"
    } else if firstDay == lastDay {
      span = "\(firstTime) to \(lastTime) do not exist on \(WallTimeFormat.date(firstDay))"
    } else {
      span = "\(WallTimeFormat.date(firstDay)) \(firstTime) to \(WallTimeFormat.date(lastDay)) \(lastTime) do not exist"
    }
    let why = dropped.dayMissing ? "the clock skipped the day" : "the hour is free, so the trigger follows real time"
    return "\(span) (DST gap); no fire: \(why)"
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
