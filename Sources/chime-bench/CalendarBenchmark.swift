import ChimeCore
import Foundation

/// Measures `CalendarEngine.nextFire` over a mixed set of triggers and zones, for `chime-bench`
/// (run it from a release build). Each call is timed on its own with the continuous clock.
enum CalendarBenchmark {
  struct Case: Sendable {
    var name: String
    var trigger: CalendarTrigger
    var zone: String

    init(name: String, trigger: CalendarTrigger, zone: String) {
      self.name = name
      self.trigger = trigger
      self.zone = zone
    }
  }

  struct CaseResult: Sendable {
    var name: String
    var zone: String
    var medianMicros: Double
    var maxMicros: Double
  }

  struct Result: Sendable, CustomStringConvertible {
    var calls: Int
    var medianMicros: Double
    var p90Micros: Double
    var p99Micros: Double
    var maxMicros: Double
    /// The slowest single run, noise included.
    var rawMaxMicros: Double
    /// Building the zone tables on first use (not part of the per-call numbers).
    var warmUpMillis: Double
    var cases: [CaseResult]

    var description: String {
      var lines = [
        String(format: "calendar next-fire: %d queries, median %.2f µs, p90 %.2f µs, p99 %.2f µs, max %.2f µs (slowest single run %.2f µs; zone tables built in %.1f ms)",
               calls, medianMicros, p90Micros, p99Micros, maxMicros, rawMaxMicros, warmUpMillis),
      ]
      for c in cases {
        lines.append(String(format: "  %-34@ %-20@ median %6.2f µs  max %7.2f µs", c.name as NSString, c.zone as NSString, c.medianMicros, c.maxMicros))
      }
      return lines.joined(separator: "\n")
    }
  }

  private static func components(_ build: (inout CalendarComponents) -> Void) -> CalendarComponents {
    var c = CalendarComponents()
    build(&c)
    return c
  }

  /// The mixed set: daily, hourly, weekly, monthly and yearly triggers, DST-night times, sparse
  /// ones (Feb 29, the 5th Friday, 5th Friday of February, Feb 29 on a Monday, week 53), in
  /// zones with 1-hour, 30-minute and no DST, a +05:45 zone and Apia.
  static let mixedCases: [Case] = {
    let zones = ["UTC", "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Australia/Lord_Howe",
                 "Asia/Kathmandu", "Pacific/Apia", "Pacific/Chatham"]
    let shapes: [(String, CalendarComponents)] = [
      ("daily 09:00", components { $0.hour = 9 }),
      ("hourly :30", components { $0.minute = 30 }),
      ("every minute at :15", components { $0.second = 15 }),
      ("daily 02:30 (DST nights)", components { $0.hour = 2; $0.minute = 30 }),
      ("Mondays 09:30", components { $0.weekday = 2; $0.hour = 9; $0.minute = 30 }),
      ("2nd Tuesday 10:00", components { $0.weekday = 3; $0.weekdayOrdinal = 2; $0.hour = 10 }),
      ("last Friday 17:00", components { $0.weekday = 6; $0.weekdayOrdinal = -1; $0.hour = 17 }),
      ("5th Friday 08:00", components { $0.weekday = 6; $0.weekdayOrdinal = 5; $0.hour = 8 }),
      ("Feb 29 12:00", components { $0.month = 2; $0.day = 29; $0.hour = 12 }),
      ("day 31 08:00", components { $0.day = 31; $0.hour = 8 }),
      ("Dec 25 07:00", components { $0.month = 12; $0.day = 25; $0.hour = 7 }),
      ("Friday 13th", components { $0.day = 13; $0.weekday = 6 }),
      ("week 53 Monday 09:00", components { $0.weekOfYear = 53; $0.weekday = 2; $0.hour = 9 }),
      ("week-of-month 2 Wed 12:00", components { $0.weekOfMonth = 2; $0.weekday = 4; $0.hour = 12 }),
      ("5th Friday of February", components { $0.month = 2; $0.weekday = 6; $0.weekdayOrdinal = 5 }),
      ("Feb 29 on a Monday", components { $0.month = 2; $0.day = 29; $0.weekday = 2 }),
      ("1 March (month only)", components { $0.month = 3 }),
      ("once: 2045-06-01 09:00", components { $0.year = 2045; $0.month = 6; $0.day = 1; $0.hour = 9 }),
    ]
    var cases: [Case] = []
    for (i, shape) in shapes.enumerated() {
      // Each shape in two zones, so every zone meets several shapes.
      for zone in [zones[i % zones.count], zones[(i + 3) % zones.count]] {
        cases.append(Case(name: shape.0, trigger: CalendarTrigger(components: shape.1, repeats: true), zone: zone))
      }
    }
    return cases
  }()

  /// Runs every case `queriesPerCase` times from pseudo-random instants in 2000...2040
  /// (fixed seed), after building the zone tables once.
  ///
  /// A query's cost is the fastest of `repeats` back-to-back runs of it: the computation is
  /// deterministic, so slower runs measure the machine (preemption by other processes), not
  /// the engine. The slowest single run is reported apart, as `rawMaxMicros`.
  static func run(cases: [Case] = mixedCases, queriesPerCase: Int = 2000, repeats: Int = 3, seed: UInt64 = 0x5EED) -> Result {
    let clock = ContinuousClock()
    let warmStart = clock.now
    var zones: [String: Zone] = [:]
    for c in cases where zones[c.zone] == nil {
      let zone = Zone.named(c.zone) ?? .utc
      zones[c.zone] = zone
      _ = CalendarEngine.nextFire(after: Instant(unixMillis: 0), trigger: c.trigger, zone: zone)
    }
    let warmUp = clock.now - warmStart

    var state = seed
    func random() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    let from: Int64 = 946_684_800_000       // 2000-01-01
    let span: UInt64 = 1_262_304_000_000    // 40 years of milliseconds

    var all: [Double] = []
    all.reserveCapacity(cases.count * queriesPerCase)
    var perCase: [CaseResult] = []
    var sink: Int64 = 0
    var rawMax = 0.0
    for c in cases {
      var c2 = c.trigger
      c2.components.timeZone = c.zone
      let zone = zones[c.zone]!
      var times: [Double] = []
      times.reserveCapacity(queriesPerCase)
      for _ in 0..<queriesPerCase {
        let after = Instant(unixMillis: from + Int64(random() % span))
        var best = Double.infinity
        for _ in 0..<repeats {
          let start = clock.now
          let fire = CalendarEngine.nextFire(after: after, trigger: c2, zone: zone)
          let elapsed = micros(clock.now - start)
          sink &+= fire?.instant.unixMillis ?? 0
          best = min(best, elapsed)
          rawMax = max(rawMax, elapsed)
        }
        times.append(best)
      }
      all.append(contentsOf: times)
      times.sort()
      perCase.append(CaseResult(name: c.name, zone: c.zone, medianMicros: times[times.count / 2], maxMicros: times[times.count - 1]))
    }
    all.sort()
    if sink == 42 { print("") }  // keep the results alive
    return Result(
      calls: all.count,
      medianMicros: all[all.count / 2],
      p90Micros: all[Int(Double(all.count) * 0.9)],
      p99Micros: all[Int(Double(all.count) * 0.99)],
      maxMicros: all[all.count - 1],
      rawMaxMicros: rawMax,
      warmUpMillis: micros(warmUp) / 1000,
      cases: perCase)
  }

  private static func micros(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
  }
}
