import ChimeCore
import Foundation
import Testing

/// Repeating triggers over many DST nights: strictly increasing, one fire per local day, no
/// day missed, nothing fired twice.
@Suite struct CalendarSequenceTests {
  typealias S = CalendarTestSupport

  /// Wall times around every zone's clock changes (Sao Paulo and Apia at midnight, Europe and
  /// the US at 02:00-03:00, Lord Howe at 01:30-02:30, Chatham at 02:45-03:45).
  static let times: [(Int, Int)] = [(0, 0), (0, 30), (1, 45), (2, 30), (3, 0)]

  @Test("daily triggers fire once on every local day", arguments: S.zones)
  func dailyOncePerDay(zoneID: String) throws {
    let zone = try #require(TimeZone(identifier: zoneID))
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = zone
    var gmt = Calendar(identifier: .gregorian)
    gmt.timeZone = TimeZone(secondsFromGMT: 0)!
    // The fire's local date as a day count (differences of start-of-day instants would not
    // do: a day can start at 01:00 and last 23 hours).
    func localDay(_ instant: Instant) -> Int {
      let c = cal.dateComponents([.year, .month, .day], from: instant.date)
      return Int(gmt.date(from: c)!.timeIntervalSince1970 / 86_400)
    }
    // 2012-2022 holds DST nights for every zone here (Sao Paulo until 2019, Apia until 2021).
    let start = S.instant("2012-01-01T00:00:00Z")
    let days = 11 * 365
    for (hour, minute) in Self.times {
      for overlap in [DSTOverlapPolicy.first, .both] {
        let t = S.trigger(zone: zoneID, overlap: overlap) { $0.hour = hour; $0.minute = minute }
        let fires = CalendarEngine.nextFires(after: start, count: days, trigger: t, zone: .utc)
        #expect(fires.count == days)
        var previousDay: Int? = nil
        var repeatedDays = 0
        for (i, fire) in fires.enumerated() {
          if i > 0 { #expect(fire.instant > fires[i - 1].instant, "not increasing at \(fire)") }
          let day = localDay(fire.instant)
          if let previousDay {
            let step = day - previousDay
            if step == 0 {
              // Only `.both` fires twice on a day, and only at a repeated wall time.
              repeatedDays += 1
              #expect(overlap == .both && fire.dstNote?.contains("this is the second") == true, "two fires on one day: \(fire)")
            } else {
              #expect(step == 1, "\(step - 1) day(s) without a fire before \(fire) (\(hour):\(minute) \(overlap))")
            }
          }
          previousDay = day
        }
        if overlap == .first { #expect(repeatedDays == 0) }
      }
    }
  }

  @Test("hourly triggers follow real time across clock changes", arguments: S.zones)
  func hourlyAcrossClockChanges(zoneID: String) throws {
    let zone = try #require(TimeZone(identifier: zoneID))
    let t = S.trigger(zone: zoneID) { $0.minute = 15 }
    var cursor = S.instant("2012-01-01T00:00:00Z")
    var changes = 0
    // A few days around each clock change of 2012-2022.
    while let change = zone.nextDaylightSavingTimeTransition(after: cursor.date), change < S.instant("2023-01-01T00:00:00Z").date {
      changes += 1
      let fires = CalendarEngine.nextFires(after: Instant(change.addingTimeInterval(-86_400)), count: 48, trigger: t, zone: .utc)
      for (a, b) in zip(fires, fires.dropFirst()) {
        let gap = b.instant.millis(since: a.instant) / 1000
        // The hour is free: every instant at :15 on the wall clock fires, so fires are one
        // real hour apart, through gaps and overlaps alike. Only a change by a fraction of an
        // hour (Lord Howe's 30 minutes) moves the :15 grid, by that much either way.
        let shift = (b.utcOffsetSeconds - a.utcOffsetSeconds) % 3600
        if shift == 0 {
          #expect(gap == 3600, "\(a) -> \(b)")
        } else {
          #expect(gap == 3600 + abs(shift) || gap == 3600 - abs(shift), "\(a) -> \(b)")
        }
      }
      cursor = Instant(change)
    }
    if zoneID != "UTC" && zoneID != "Asia/Kathmandu" { #expect(changes >= 4) }
  }
}
