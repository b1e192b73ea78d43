import ChimeCore
import Foundation
import Testing

/// The engine against the brute-force oracle on random component sets (fixed seeds), in eight
/// zones over 1995-2040, half of the starting instants within a day and a half before an offset
/// change and many wall times chosen inside the gap or overlap it makes.
@Suite struct CalendarOracleTests {
  static let casesPerZone = 1000
  /// Instants 1995-01-01 ... 2040-12-31.
  static let from: Int64 = 788_918_400
  static let to: Int64 = 2_240_611_200
  /// How far the oracle looks: five years and a bit (Feb 29 needs four).
  static let horizon: Int64 = 5 * 366 * 86_400

  struct Tally {
    var compared = 0
    var neverMatching = 0
    var gapOrOverlapFires = 0
  }

  @Test("engine agrees with the oracle", arguments: CalendarTestSupport.zones)
  func agreesWithOracle(zoneID: String) throws {
    // Foundation's zone (ICU's data) is the oracle's; the engine runs on Chime's TZif zone.
    let zone = try #require(TimeZone(identifier: zoneID))
    let chimeZone = try #require(Zone.named(zoneID))
    var rng = SeededGenerator(seed: 0xC0FFEE &+ UInt64(CalendarTestSupport.zones.firstIndex(of: zoneID)!) &* 7919)
    var tally = Tally()
    for index in 0..<Self.casesPerZone {
      let (trigger, after) = Self.randomCase(zone: zone, zoneID: zoneID, rng: &rng)
      do {
        try CalendarEngine.validate(trigger, field: "t")
      } catch {
        tally.neverMatching += 1
        continue
      }
      // The first fire, then the one after it: a repeating trigger's sequence.
      var cursor = after
      // Sub-second starting points: fires are whole seconds strictly after them.
      var millis = Int64.random(in: 0...999, using: &rng)
      for _ in 0..<2 {
        let oracle = CalendarOracle(trigger, zone: zone).next(after: cursor, limit: cursor + Self.horizon)
        let engine = CalendarEngine.nextFire(after: Instant(unixMillis: cursor * 1000 + millis), trigger: trigger, zone: chimeZone)
        let engineSeconds = engine.map { $0.instant.unixMillis / 1000 }
        tally.compared += 1
        if let oracle {
          #expect(engineSeconds == oracle, "case \(index) \(Self.describe(trigger)) after \(Instant(unixMillis: cursor * 1000)): engine \(engine.map { "\($0)" } ?? "nil"), oracle \(Instant(unixMillis: oracle * 1000))")
          if engine?.dstNote != nil { tally.gapOrOverlapFires += 1 }
        } else {
          #expect(engineSeconds == nil || engineSeconds! > cursor + Self.horizon, "case \(index) \(Self.describe(trigger)) after \(Instant(unixMillis: cursor * 1000)): engine \(engine.map { "\($0)" } ?? "nil"), oracle none within the horizon")
        }
        guard let next = engineSeconds, engineSeconds == oracle else { break }
        cursor = next
        millis = 0
      }
    }
    // Enough cases ran, and enough of them met a clock change, for the comparison to mean something.
    print("oracle \(zoneID): \(tally.compared) comparisons, \(tally.gapOrOverlapFires) decided by a clock change, \(tally.neverMatching) never-matching sets skipped")
    #expect(tally.compared >= Self.casesPerZone)
    if zoneID != "UTC" && zoneID != "Asia/Kathmandu" {
      #expect(tally.gapOrOverlapFires >= 40, "only \(tally.gapOrOverlapFires) fires met a gap or an overlap")
    }
  }

  static func describe(_ t: CalendarTrigger) -> String {
    let c = t.components
    var parts: [String] = []
    for (name, value) in [("year", c.year), ("month", c.month), ("day", c.day), ("hour", c.hour), ("minute", c.minute),
                          ("second", c.second), ("weekday", c.weekday), ("ordinal", c.weekdayOrdinal),
                          ("weekOfMonth", c.weekOfMonth), ("weekOfYear", c.weekOfYear), ("yearForWeekOfYear", c.yearForWeekOfYear)] {
      if let value { parts.append("\(name)=\(value)") }
    }
    if let days = c.weekdays { parts.append("weekdays=\(days)") }
    return "{\(parts.joined(separator: " ")) zone=\(c.timeZone ?? "floating") gap=\(t.dstGap) overlap=\(t.dstOverlap)}"
  }

  static func randomCase(zone: TimeZone, zoneID: String, rng: inout SeededGenerator) -> (CalendarTrigger, Int64) {
    var after = Int64.random(in: from...to, using: &rng)
    // Wall time (seconds of the day) to aim the time components at, if any.
    var aimedSecondOfDay: Int64? = nil
    if Bool.random(using: &rng),
       let change = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(after))),
       change.timeIntervalSince1970 < Double(to) {
      let t = Int64(change.timeIntervalSince1970)
      after = t - Int64.random(in: 0...(36 * 3600), using: &rng)
      let before = t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t - 1))))
      let at = t + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
      // A wall time in the gap (before ..< at) or the overlap (at ..< before), or near it.
      let lo = min(before, at) - 1800
      let hi = max(before, at) + 1800
      let wall = Int64.random(in: lo..<hi, using: &rng)
      aimedSecondOfDay = ((wall % 86_400) + 86_400) % 86_400
    }

    var c = CalendarComponents()
    let aimed = aimedSecondOfDay.map { (h: Int($0 / 3600), m: Int($0 / 60 % 60), s: Int($0 % 60)) }
    let hourValue = aimed?.h ?? Int.random(in: 0...23, using: &rng)
    let minuteValue = aimed.map { Bool.random(using: &rng) ? $0.m : $0.m / 15 * 15 } ?? [0, 0, 15, 30, 45, Int.random(in: 0...59, using: &rng)].randomElement(using: &rng)!
    switch Int.random(in: 0..<100, using: &rng) {
    case 0..<40:
      c.hour = hourValue
      c.minute = minuteValue
    case 40..<55:
      c.minute = minuteValue
    case 55..<62:
      c.second = aimed?.s ?? Int.random(in: 0...59, using: &rng)
      if Bool.random(using: &rng) { c.minute = minuteValue }
      if aimed != nil, Bool.random(using: &rng) { c.hour = hourValue }
    case 62..<72:
      c.hour = hourValue
      c.second = Int.random(in: 0...59, using: &rng)
    case 72..<87:
      c.hour = hourValue
    default:
      break  // date only: fires at 00:00:00
    }

    let year = Int(CalendarTestSupport.local(Instant(unixMillis: after * 1000), zoneID).prefix(4))!
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }
    // Aimed at a clock change: fewer date components, so the changing day often matches.
    let dateScale = aimed == nil ? 1 : 3
    func chance(_ percent: Int, scaled: Bool) -> Bool { chance(percent / (scaled ? dateScale : 1)) }
    if chance(30, scaled: true) {
      if chance(35) {
        // Several weekdays (`weekday=mon-fri`, `weekday=mon+wed+fri`).
        var days = Set<Int>()
        let size = Int.random(in: 2...6, using: &rng)
        while days.count < size { days.insert(Int.random(in: 1...7, using: &rng)) }
        c.weekdays = days.sorted()
      } else {
        c.weekday = Int.random(in: 1...7, using: &rng)
      }
    }
    if chance(12, scaled: true) { c.day = chance(30) ? Int.random(in: 28...31, using: &rng) : Int.random(in: 1...31, using: &rng) }
    if chance(10, scaled: true) { c.month = Int.random(in: 1...12, using: &rng) }
    if chance(10, scaled: true) { c.weekdayOrdinal = [1, 2, 3, 4, 5, -1].randomElement(using: &rng)! }
    if chance(7, scaled: true) { c.weekOfMonth = Int.random(in: 1...6, using: &rng) }
    if chance(6, scaled: true) { c.weekOfYear = chance(20) ? Int.random(in: 52...53, using: &rng) : Int.random(in: 1...53, using: &rng) }
    if chance(3) { c.yearForWeekOfYear = year + Int.random(in: 0...1, using: &rng) }
    if chance(4) { c.year = year + Int.random(in: 0...1, using: &rng) }
    if c == CalendarComponents() { c.hour = hourValue }
    // Floating triggers take the zone passed in; the others name it.
    if chance(80) { c.timeZone = zoneID }
    let trigger = CalendarTrigger(
      components: c, repeats: true,
      dstGap: chance(50) ? .nextValid : .skip,
      dstOverlap: chance(50) ? .first : .both)
    return (trigger, after)
  }
}
