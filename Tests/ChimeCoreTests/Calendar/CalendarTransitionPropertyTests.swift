import ChimeCore
import Foundation
import Testing

/// Every offset change of zones with odd rules, 1995 through 2040: the engine's fires from just
/// before the change (1 ms, 1 s and 1 min) against a brute-force scan of real instants
/// (`TransitionScan`), for patterns that fix the hour and patterns that leave it free, aimed at
/// the wall times the change skips or repeats and at those on either side of them.
@Suite struct CalendarTransitionPropertyTests {
  static let zones = [
    "Australia/Lord_Howe",  // +10:30/+11, the half hour at 02:00
    "Antarctica/Troll",     // +00/+02, two hours at 01:00 UTC
    "Pacific/Chatham",      // +12:45/+13:45, at 02:45
    "America/St_Johns",     // -03:30/-02:30, at 00:01 local until 2011: midnight moves back to 23:01
    "Australia/Adelaide",   // +09:30/+10:30
    "Australia/Eucla",      // +08:45/+09:45, 2006-2009
    "Asia/Tehran",          // +03:30/+04:30, at midnight, until 2022
    "Asia/Colombo",         // +05:30 -> +06:30 -> +06:00 -> +05:30 (1996, 2006)
    "Asia/Pyongyang",       // +09 -> +08:30 -> +09 (2015, 2018)
    "Pacific/Apia",         // skipped 2011-12-30; DST 2010-2021
    "Pacific/Kiritimati",   // skipped 1994-12-31 (from -10 to +14)
    "America/Sao_Paulo",    // at midnight, until 2019
    "America/Havana",       // at midnight (00:00 -> 01:00, 01:00 -> 00:00)
    "America/Santiago",     // at midnight (24:00 -> 01:00)
    "Africa/Casablanca",    // Ramadan suspensions, twice a year from 2019 on
    "America/New_York",
    "Europe/London",
  ]
  /// Offset changes each zone has in the range (tzdata 2024-2025), less a little slack for
  /// later tzdata: the walk must not silently find nothing.
  static let minimumChanges: [String: Int] = [
    "Australia/Lord_Howe": 90, "Antarctica/Troll": 70, "Pacific/Chatham": 90, "America/St_Johns": 90,
    "Australia/Adelaide": 90, "Australia/Eucla": 6, "Asia/Tehran": 50, "Asia/Colombo": 3, "Asia/Pyongyang": 2,
    "Pacific/Apia": 22, "Pacific/Kiritimati": 1, "America/Sao_Paulo": 48, "America/Havana": 85,
    "America/Santiago": 85, "Africa/Casablanca": 60, "America/New_York": 90, "Europe/London": 90,
  ]
  /// Changes from December 1994 (for Kiritimati's skipped day) through 2040.
  static let from: Int64 = 786_240_000    // 1994-12-01T00:00:00Z
  static let to: Int64 = 2_240_611_200    // 2041-01-01T00:00:00Z
  /// How far before the change the search starts, in milliseconds.
  static let leads: [Int64] = [1, 1000, 60_000]

  struct Tally {
    var transitions = 0
    /// (pattern, policies, start) triples compared.
    var cases = 0
    var fires = 0
  }

  /// One pattern under one pair of policies, compared up to `limit` (UTC seconds).
  struct Probe {
    var pattern: TransitionScan.Pattern
    var gap: DSTGapPolicy
    var overlap: DSTOverlapPolicy
    var limit: Int64
  }

  @Test("fires around every offset change agree with a brute-force scan", arguments: zones)
  func agreesWithScan(zoneID: String) throws {
    let zone = try #require(TimeZone(identifier: zoneID))
    var rng = SeededGenerator(seed: 0x7A11 &+ UInt64(Self.zones.firstIndex(of: zoneID)!))
    var tally = Tally()
    var cursor = Date(timeIntervalSince1970: Double(Self.from))
    while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change.timeIntervalSince1970 < Double(Self.to) {
      cursor = change
      let t = Int64(change.timeIntervalSince1970)
      let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t - 1)))
      let after = zone.secondsFromGMT(for: change)
      guard before != after else { continue }
      tally.transitions += 1
      let scan = TransitionScan(zone: zone, transition: t)
      for probe in Self.probes(scan: scan, jump: after - before, rng: &rng) {
        let (pattern, gap, overlap, limit) = (probe.pattern, probe.gap, probe.overlap, probe.limit)
        var c = pattern.components
        c.timeZone = zoneID
        let trigger = CalendarTrigger(components: c, repeats: true, dstGap: gap, dstOverlap: overlap)
        let expected = scan.fires(pattern, gap: gap, overlap: overlap, through: limit)
        // The whole sequence from the earliest start; from the later ones only the first fire,
        // which is all that differs: every later fire is `nextFire` after the one before it,
        // the same call as in the whole sequence.
        let earliest = t * 1000 - Self.leads.max()!
        let sequence = Self.engineFires(trigger, after: earliest, through: limit)
        tally.fires += sequence.count
        for lead in Self.leads {
          let start = t * 1000 - lead
          let want = expected.filter { $0 * 1000 > start }
          let got = start == earliest ? sequence : Self.engineFires(trigger, after: start, through: limit, count: 1)
          tally.cases += 1
          if got != (start == earliest ? want : Array(want.prefix(1))) {
            // From the first difference on, a few of each.
            let same = zip(got, want).prefix { $0 == $1 }.count
            Issue.record("""
              \(zoneID) change at \(Self.iso(t)) (\(before) -> \(after)), {\(pattern)} gap=\(gap) overlap=\(overlap), \
              from \(lead) ms before, after \(same) equal fires: engine \(got.dropFirst(same).prefix(4).map(Self.iso)), \
              scan \(want.dropFirst(same).prefix(4).map(Self.iso))
              """)
            return
          }
        }
      }
    }
    print("transitions \(zoneID): \(tally.transitions) changes, \(tally.cases) cases, \(tally.fires) fires compared")
    #expect(tally.transitions >= Self.minimumChanges[zoneID]!, "only \(tally.transitions) offset changes")
  }

  /// The patterns to try at one change, with their policies and how far to compare.
  ///
  /// The wall times of interest: the first and last minute the change skips or repeats, the
  /// middle one, and the minutes just outside. Patterns that fix the hour (`hour:minute` at
  /// each of them, `hour:minute:01` and `hour` with `second=30` at the middle one, midnight on
  /// the days around) run under both policies the change calls on (gap or overlap; the other
  /// drawn at random) and are compared for 26 hours (4 with the minute free). Patterns that
  /// leave the hour free (`minute` of each wall time, `second=0`, a weekday with a minute)
  /// run under policies drawn at random at each change (they must not matter) and are
  /// compared for 4 hours (15 minutes every minute).
  static func probes(scan: TransitionScan, jump: Int, rng: inout SeededGenerator) -> [Probe] {
    let t = scan.transition
    let gmt = Self.gmt
    // The offsets just before and at the change: the wall times it skips or repeats are
    // lo ..< hi.
    let offsetBefore = scan.walls[Int((t - scan.first) / 60) - 1] - (t - 60)
    let offsetAfter = scan.walls[Int((t - scan.first) / 60)] - t
    let lo = t + min(offsetBefore, offsetAfter)
    let hi = t + max(offsetBefore, offsetAfter)
    let middle = lo + (hi - lo) / 120 * 60
    let walls = [lo - 60, lo, middle, hi - 60, hi]
    func timeOfDay(_ wall: Int64) -> (h: Int, m: Int) {
      let s = wall - TransitionScan.floorDiv(wall, 86_400) * 86_400
      return (Int(s / 3600), Int(s / 60 % 60))
    }
    func weekday(_ wall: Int64) -> Int {
      gmt.component(.weekday, from: Date(timeIntervalSince1970: Double(TransitionScan.floorDiv(wall, 86_400) * 86_400)))
    }

    var fixed: [CalendarComponents] = []
    var seen = Set<Int>()
    for wall in walls {
      let (h, m) = timeOfDay(wall)
      guard seen.insert(h * 60 + m).inserted else { continue }
      fixed.append(CalendarTestSupport.components { $0.hour = h; $0.minute = m })
    }
    let (mh, mm) = timeOfDay(middle)
    fixed.append(CalendarTestSupport.components { $0.hour = mh; $0.minute = mm; $0.second = 1 })
    fixed.append(CalendarTestSupport.components { $0.hour = mh; $0.second = 30 })
    // Midnight on the days the skipped or repeated wall times fall on, and the day after.
    var days = Set<Int>()
    for wall in [lo, hi - 1, hi] {
      let w = weekday(wall)
      if days.insert(w).inserted { fixed.append(CalendarTestSupport.components { $0.weekday = w }) }
    }

    var free: [CalendarComponents] = []
    var minutes = Set<Int>()
    for wall in walls where minutes.insert(timeOfDay(wall).m).inserted {
      let m = timeOfDay(wall).m
      free.append(CalendarTestSupport.components { $0.minute = m })
    }
    free.append(CalendarTestSupport.components { $0.second = 0 })
    let loWeekday = weekday(lo)
    free.append(CalendarTestSupport.components { $0.weekday = loWeekday; $0.minute = mm })

    let day = t + 26 * 3600
    let hours = t + 4 * 3600
    let quarter = t + 900
    var result: [Probe] = []
    let forward = jump > 0
    for c in fixed {
      let pattern = TransitionScan.Pattern(c)
      // With the minute free, an hour's worth of fires: a few hours are enough.
      let day = c.minute == nil && c.second != nil ? hours : day
      if forward {
        let overlap: DSTOverlapPolicy = Bool.random(using: &rng) ? .first : .both
        result.append(Probe(pattern: pattern, gap: .nextValid, overlap: overlap, limit: day))
        result.append(Probe(pattern: pattern, gap: .skip, overlap: overlap, limit: day))
      } else {
        let gap: DSTGapPolicy = Bool.random(using: &rng) ? .nextValid : .skip
        result.append(Probe(pattern: pattern, gap: gap, overlap: .first, limit: day))
        result.append(Probe(pattern: pattern, gap: gap, overlap: .both, limit: day))
      }
    }
    let gap: DSTGapPolicy = Bool.random(using: &rng) ? .nextValid : .skip
    let overlap: DSTOverlapPolicy = Bool.random(using: &rng) ? .first : .both
    for c in free {
      let pattern = TransitionScan.Pattern(c)
      result.append(Probe(pattern: pattern, gap: gap, overlap: overlap, limit: c.second != nil ? quarter : hours))
    }
    return result
  }

  static let gmt: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    return calendar
  }()

  /// The engine's successive fires after `start` (ms) up to `limit` (UTC seconds), at most
  /// `count`.
  static func engineFires(_ trigger: CalendarTrigger, after start: Int64, through limit: Int64, count: Int = 1000) -> [Int64] {
    var fires: [Int64] = []
    var cursor = Instant(unixMillis: start)
    while fires.count < count, let fire = CalendarEngine.nextFire(after: cursor, trigger: trigger, zone: .utc) {
      let seconds = fire.instant.unixMillis / 1000
      if seconds > limit { break }
      fires.append(seconds)
      cursor = fire.instant
    }
    return fires
  }

  static func iso(_ t: Int64) -> String {
    Date(timeIntervalSince1970: Double(t)).formatted(.iso8601)
  }
}
