/// A zone's UTC offsets as a sorted table of transitions, built once from the zone's TZif data
/// (its transitions, then its footer rule up to `tableEnd`) and then searched.
///
/// Covers 1900 to 2501. Instants before 1900 use the zone's 1900 offset. From 2500 on, a zone
/// whose rules continue is read 400 years earlier: Gregorian dates and weekdays repeat every
/// 400 years, and so do rules such as "last Sunday of March, 01:00 UTC" (no zone has changes
/// scheduled after 2100).
final class ZoneTable: Sendable {
  /// The name the zone was asked for.
  let identifier: String
  /// UTC seconds at which `offsets[i + 1]` takes over from `offsets[i]`; strictly increasing.
  let transitions: [Int64]
  /// Seconds east of UTC; `offsets.count == transitions.count + 1`.
  let offsets: [Int]
  /// Rules go on past `tableEnd`: instants from then on are read 400 years earlier.
  let periodic: Bool

  static let tableStart: Int64 = -2_208_988_800              // 1900-01-01T00:00:00Z
  static let periodicFrom: Int64 = 16_725_225_600            // 2500-01-01T00:00:00Z
  static let cycleSeconds = Int64(CivilDate.daysPerCycle) * CivilDate.secondsPerDay
  static let tableEnd = periodicFrom + 2 * 366 * 86_400
  /// No offset in tzdata is 26 hours or more from UTC.
  static let offsetBound: Int64 = 26 * 3600

  /// One offset for ever.
  init(identifier: String, fixed offset: Int) {
    self.identifier = identifier
    transitions = []
    offsets = [offset]
    periodic = false
  }

  init(identifier: String, data: TZifData) {
    self.identifier = identifier
    var builder = Builder(first: data.offsets[0])
    for (k, t) in data.transitions.enumerated() {
      builder.add(t, data.offsets[k + 1])
    }
    var periodic = false
    if let rule = data.footer {
      // The footer holds after the last transition, or for all time when there is none.
      let after = data.transitions.last ?? Int64.min
      if data.transitions.isEmpty { builder.add(Int64.min, rule.standardOffset) }
      // A last transition at or past the table's end (none in tzdata) leaves nothing to add.
      if rule.daylight != nil, after < Self.tableEnd {
        periodic = true
        let from = max(after, Self.tableStart)
        let firstYear = CivilDate.civil(Int(CivilDate.floorDiv(from, CivilDate.secondsPerDay))).year - 1
        let lastYear = CivilDate.civil(Int(Self.tableEnd / CivilDate.secondsPerDay)).year + 1
        var changes: [(at: Int64, order: Int, offset: Int)] = []
        for year in firstYear...lastYear {
          for (k, change) in rule.changes(year: year).enumerated() {
            changes.append((change.at, year * 2 + k, change.offset))
          }
        }
        changes.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        for change in changes where change.at > after || data.transitions.isEmpty {
          builder.add(change.at, change.offset)
        }
      } else if rule.daylight == nil, rule.standardOffset != builder.offsets[builder.offsets.count - 1],
                after != Int64.min, after < Self.tableEnd {
        // A footer that disagrees with the last transition's offset: the footer rules after it.
        builder.add(after + 1, rule.standardOffset)
      }
    }
    transitions = builder.transitions
    offsets = builder.offsets
    self.periodic = periodic
  }

  /// Collects offset changes in time order, keeping only those inside the table's range that
  /// change the offset; two changes at one instant leave the later one.
  private struct Builder {
    var transitions: [Int64] = []
    var offsets: [Int]

    init(first: Int) { offsets = [first] }

    mutating func add(_ t: Int64, _ offset: Int) {
      guard t < ZoneTable.tableEnd else { return }
      if t <= ZoneTable.tableStart {
        offsets[0] = offset
        return
      }
      if let last = transitions.last, t <= last {
        offsets[offsets.count - 1] = offset
        if offsets[offsets.count - 1] == offsets[offsets.count - 2] {
          transitions.removeLast()
          offsets.removeLast()
        }
        return
      }
      guard offset != offsets[offsets.count - 1] else { return }
      transitions.append(t)
      offsets.append(offset)
    }
  }

  /// A time `t` (instant or wall seconds) moved into the table's range, and what was taken off.
  @inline(__always)
  private func fold(_ t: Int64) -> (Int64, Int64) {
    guard periodic, t >= Self.periodicFrom else { return (t, 0) }
    let k = (t - (Self.periodicFrom - Self.cycleSeconds)) / Self.cycleSeconds
    let shift = k * Self.cycleSeconds
    return (t - shift, shift)
  }

  /// Index into `offsets` of the period holding instant `t` (already folded).
  @inline(__always)
  private func period(_ t: Int64) -> Int {
    var lo = 0
    var hi = transitions.count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if transitions[mid] <= t { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Seconds east of UTC at instant `t` (UTC seconds).
  func offset(at t: Int64) -> Int {
    offsets[period(fold(t).0)]
  }

  /// The smallest wall time whose first instant (`resolve(wall:).first`: its first
  /// occurrence, or the end of the gap that skipped it) is after `t`. Normally the wall time
  /// at `t + 1`; earlier when the clock is set back within the next two days (the second
  /// occurrences are still ahead), or when it jumps forward exactly at `t + 1` (the wall times
  /// it skips have their gap's end, `t + 1`, ahead).
  func earliestWall(after t: Int64) -> Int64 {
    let (u, shift) = fold(t + 1)
    var i = period(u)
    var best = u + Int64(offsets[i])
    if i > 0, transitions[i - 1] == u { best = min(best, u + Int64(offsets[i - 1])) }
    i += 1
    while i < offsets.count, transitions[i - 1] <= u + 2 * CivilDate.secondsPerDay {
      best = min(best, transitions[i - 1] + Int64(offsets[i]))
      i += 1
    }
    return best + shift
  }

  /// What a wall time (local seconds since 1970-01-01T00:00 local) maps to.
  enum Resolution: Equatable {
    case single(Int64)
    /// Occurs twice; the two instants in order.
    case repeated(Int64, Int64)
    /// Skipped by a forward jump; the first instant after the jump.
    case skipped(gapEnd: Int64)

    /// The first instant whose wall time is at or past the wall time: the first occurrence,
    /// or the end of the gap. Non-decreasing in the wall time.
    var first: Int64 {
      switch self {
      case .single(let t), .repeated(let t, _), .skipped(let t): t
      }
    }
  }

  /// Whether some instant shows a wall time on local day `day` (days since 1970-01-01):
  /// false only for a day the clock jumped over whole, such as 2011-12-30 in Pacific/Apia.
  func showsDay(_ day: Int) -> Bool {
    let w = fold(Int64(day) * CivilDate.secondsPerDay).0
    let end = w + CivilDate.secondsPerDay
    var i = period(w - Self.offsetBound)
    let hi = period(end + Self.offsetBound)
    while i <= hi {
      // Period i holds the instants transitions[i - 1] ..< transitions[i]; its wall times
      // are those plus its offset.
      let offset = Int64(offsets[i])
      let showsFrom = i == 0 ? Int64.min : transitions[i - 1] + offset
      let showsTo = i == transitions.count ? Int64.max : transitions[i] + offset
      if showsFrom < end && showsTo > w { return true }
      i += 1
    }
    return false
  }

  func resolve(wall: Int64) -> Resolution {
    let (w, shift) = fold(wall)
    let lo = period(w - Self.offsetBound)
    let hi = period(w + Self.offsetBound)
    var firstFound: Int64? = nil
    var i = lo
    while i <= hi {
      let t = w - Int64(offsets[i])
      let starts = i == 0 ? Int64.min : transitions[i - 1]
      let ends = i == transitions.count ? Int64.max : transitions[i]
      if t >= starts && t < ends {
        if let earlier = firstFound { return .repeated(earlier + shift, t + shift) }
        firstFound = t
      }
      i += 1
    }
    if let t = firstFound { return .single(t + shift) }
    // A gap: the transition where the wall clock jumped from below `w` to above it.
    var j = max(lo, 1)
    while j <= hi {
      let t = transitions[j - 1]
      if t + Int64(offsets[j - 1]) <= w && w < t + Int64(offsets[j]) {
        return .skipped(gapEnd: t + shift)
      }
      j += 1
    }
    // Unreachable for a consistent table; answer the naive conversion.
    return .single(w - Int64(offsets[lo]) + shift)
  }
}
