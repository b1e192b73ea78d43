import ChimeCore
import Foundation

/// A brute-force reference for calendar triggers, written apart from the engine and sharing
/// none of its code: it walks instants forward a minute at a time (a second at a time when a
/// second is given), asks Foundation for the zone's offset at each instant
/// (`TimeZone.secondsFromGMT(for:)`) and for the calendar fields of each local day
/// (`Calendar.dateComponents`), and sees gaps and overlaps as jumps of the wall clock between
/// two steps.
///
/// The rule at clock changes: a pattern that fixes the hour (given, or 00 under a day-level
/// component) fires a wall time skipped by a jump at the first instant after it (`nextValid`,
/// once however many it skipped) and a repeated one at its first occurrence only (`first`); one
/// that leaves the hour free fires at the instants that show a matching wall time and nothing
/// else, whatever its policies say. A wall time on a day the jump skipped whole has no fire.
///
/// To stay fast it may leap over a stretch of wall time it has already shown cannot match (the
/// rest of a day whose date fails, the rest of an hour whose hour fails, ...), but only when
/// Foundation reports no offset change inside the stretch, so the wall clock moves in step
/// with the instants there.
final class CalendarOracle {
  let zone: TimeZone
  let c: CalendarComponents
  let gap: DSTGapPolicy
  let overlap: DSTOverlapPolicy

  private let hour: Int?
  private let minute: Int?
  private let second: Int?
  private let pinnedDay: Bool
  private let step: Int64

  private let gregorian: Calendar
  private let mondayWeeks: Calendar
  private let iso: Calendar
  private var dayCache: [Int64: Bool] = [:]

  init(_ trigger: CalendarTrigger, zone: TimeZone) {
    self.zone = zone
    c = trigger.components
    // The smallest given unit pins the smaller ones to their minimum.
    if c.second != nil {
      (hour, minute, second) = (c.hour, c.minute, c.second)
    } else if c.minute != nil {
      (hour, minute, second) = (c.hour, c.minute, 0)
    } else if c.hour != nil {
      (hour, minute, second) = (c.hour, 0, 0)
    } else {
      (hour, minute, second) = (0, 0, 0)
    }
    // A free hour follows real time: skipped wall times do not fire, repeated ones fire again.
    gap = hour == nil ? .skip : trigger.dstGap
    overlap = hour == nil ? .both : trigger.dstOverlap
    pinnedDay = c.day == nil && c.weekday == nil && (c.weekdays ?? []).isEmpty && c.hour == nil && c.minute == nil && c.second == nil
    step = c.second != nil ? 1 : 60

    let gmt = TimeZone(secondsFromGMT: 0)!
    var g = Calendar(identifier: .gregorian)
    g.timeZone = gmt
    gregorian = g
    var m = Calendar(identifier: .gregorian)
    m.timeZone = gmt
    m.firstWeekday = 2
    m.minimumDaysInFirstWeek = 1
    mondayWeeks = m
    var i = Calendar(identifier: .iso8601)
    i.timeZone = gmt
    iso = i
  }

  // MARK: Matching a wall time (local seconds counted like UTC seconds)

  private func dateComponentsMatch(_ day: Int64) -> Bool {
    if let cached = dayCache[day] { return cached }
    let date = Date(timeIntervalSince1970: Double(day) * 86_400)
    let f = gregorian.dateComponents([.year, .month, .day, .weekday, .weekdayOrdinal], from: date)
    var ok = true
    if let v = c.year, v != f.year { ok = false }
    if let v = c.month, v != f.month { ok = false }
    if let v = c.day, v != f.day { ok = false }
    if let v = c.weekday, v != f.weekday { ok = false }
    if let v = c.weekdays, !v.isEmpty, !v.contains(f.weekday!) { ok = false }
    if ok, let v = c.weekdayOrdinal {
      if v == -1 {
        let length = gregorian.range(of: .day, in: .month, for: date)!.count
        if f.day! + 7 <= length { ok = false }
      } else if v != f.weekdayOrdinal {
        ok = false
      }
    }
    if ok, let v = c.weekOfMonth, v != mondayWeeks.component(.weekOfMonth, from: date) { ok = false }
    if ok, let v = c.weekOfYear, v != iso.component(.weekOfYear, from: date) { ok = false }
    if ok, let v = c.yearForWeekOfYear, v != iso.component(.yearForWeekOfYear, from: date) { ok = false }
    dayCache[day] = ok
    return ok
  }

  private func dateMatches(_ day: Int64) -> Bool {
    guard dateComponentsMatch(day) else { return false }
    return !pinnedDay || !dateComponentsMatch(day - 1)
  }

  private func split(_ wall: Int64) -> (day: Int64, h: Int64, m: Int64, s: Int64) {
    var day = wall / 86_400
    if wall % 86_400 < 0 { day -= 1 }
    let sod = wall - day * 86_400
    return (day, sod / 3600, sod / 60 % 60, sod % 60)
  }

  func matches(wall: Int64) -> Bool {
    let (day, h, m, s) = split(wall)
    if let hour, Int64(hour) != h { return false }
    if let minute, Int64(minute) != m { return false }
    if let second, Int64(second) != s { return false }
    return dateMatches(day)
  }

  /// How far ahead the next wall time that could match is (at least one step).
  private func leap(from wall: Int64) -> Int64 {
    let (day, h, m, s) = split(wall)
    let sod = wall - day * 86_400
    let toNextDay = 86_400 - sod
    if !dateMatches(day) { return toNextDay }
    if let hour {
      let H = Int64(hour)
      if h < H { return H * 3600 - sod }
      if h > H { return toNextDay }
    }
    if let minute {
      let M = Int64(minute)
      if m < M { return h * 3600 + M * 60 - sod }
      if m > M { return (h + 1) * 3600 - sod }
    }
    if let second {
      let S = Int64(second)
      if s < S { return h * 3600 + m * 60 + S - sod }
      if s > S { return h * 3600 + (m + 1) * 60 - sod }
    }
    return step
  }

  // MARK: Walking instants

  private func wall(_ t: Int64) -> Int64 {
    t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
  }

  private func transition(after t: Int64) -> Int64? {
    guard let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(t))) else { return nil }
    return Int64(next.timeIntervalSince1970)
  }

  /// The first fire at a UTC second after `after` and at or before `limit`, or nil.
  func next(after: Int64, limit: Int64) -> Int64? {
    var t = step == 1 ? after + 1 : ((after >= 0 ? after / 60 : (after - 59) / 60) + 1) * 60
    var previous = wall(t - step)
    // Highest wall time shown before `t`: wall times shown again after a backward jump are
    // second occurrences. The maximum over the last 6 hours is just before `t` or just before
    // a transition.
    var highest = previous
    var cursor = t - 6 * 3600
    while let tr = transition(after: cursor), tr < t {
      highest = max(highest, wall(tr - step))
      cursor = tr
    }
    var nextChange = transition(after: t - 1)
    while t <= limit {
      let w = wall(t)
      if w > previous + step, gap == .nextValid {
        // The wall clock jumped over previous + step ..< w: those wall times do not exist. A
        // day between the two sides of the jump does not exist at all.
        let days = (split(previous).day, split(w).day)
        var skipped = previous + step
        while skipped < w {
          let day = split(skipped).day
          if matches(wall: skipped), day == days.0 || day == days.1 { return t }
          skipped += step
        }
      }
      if matches(wall: w), w > highest || overlap == .both { return t }
      highest = max(highest, w)
      previous = w

      if let change = nextChange, change <= t { nextChange = transition(after: t) }
      var target = t + leap(from: w)
      if let change = nextChange, change > t, change < target {
        precondition(step == 1 || change % 60 == 0, "offset change off a minute boundary")
        target = change
      }
      if target > t + step {
        previous = w + (target - step - t)
        highest = max(highest, previous)
      }
      t = target
    }
    return nil
  }
}
