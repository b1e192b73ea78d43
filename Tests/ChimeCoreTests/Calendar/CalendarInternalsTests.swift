@testable import ChimeCore
import Foundation
import Testing

/// The engine's building blocks against Foundation: civil-date arithmetic and week numbers,
/// and the zone tables against `TimeZone.secondsFromGMT(for:)`.
@Suite struct CalendarInternalsTests {
  @Test func dayNumbersRoundTrip() {
    // 1600-01-01 ... 2500-12-31, and a few far ones.
    let first = CivilDate.dayNumber(year: 1600, month: 1, day: 1)
    let last = CivilDate.dayNumber(year: 2500, month: 12, day: 31)
    var expected = (1600, 1, 1)
    for n in first...last {
      let c = CivilDate.civil(n)
      if c != expected {
        Issue.record("day \(n): \(c) != \(expected)")
        return
      }
      expected.2 += 1
      if expected.2 > CivilDate.daysInMonth(year: expected.0, month: expected.1) {
        expected.2 = 1
        expected.1 += 1
        if expected.1 > 12 { expected = (expected.0 + 1, 1, 1) }
      }
    }
    #expect(CivilDate.dayNumber(year: 1970, month: 1, day: 1) == 0)
    #expect(CivilDate.dayNumber(year: 2000, month: 3, day: 1) == 11_017)
    #expect(CivilDate.civil(CivilDate.dayNumber(year: 1, month: 1, day: 1)) == (1, 1, 1))
    #expect(CivilDate.civil(CivilDate.dayNumber(year: 9999, month: 12, day: 31)) == (9999, 12, 31))
  }

  @Test func weekFieldsAgreeWithFoundation() {
    let gmt = TimeZone(secondsFromGMT: 0)!
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = gmt
    var mondayWeeks = gregorian
    mondayWeeks.firstWeekday = 2
    mondayWeeks.minimumDaysInFirstWeek = 1
    var iso = Calendar(identifier: .iso8601)
    iso.timeZone = gmt
    let first = CivilDate.dayNumber(year: 1990, month: 1, day: 1)
    let last = CivilDate.dayNumber(year: 2045, month: 12, day: 31)
    var mismatches = 0
    for n in first...last {
      let date = Date(timeIntervalSince1970: Double(n) * 86_400)
      let (y, m, d) = CivilDate.civil(n)
      let f = gregorian.dateComponents([.year, .month, .day, .weekday], from: date)
      let (wy, w) = CivilDate.isoWeek(n)
      let ok = f.year == y && f.month == m && f.day == d && f.weekday == CivilDate.weekday(n)
        && iso.component(.weekOfYear, from: date) == w && iso.component(.yearForWeekOfYear, from: date) == wy
        && mondayWeeks.component(.weekOfMonth, from: date) == CivilDate.weekOfMonth(day: d, firstOfMonth: n - d + 1)
      if !ok {
        mismatches += 1
        if mismatches < 5 { Issue.record("day \(n) (\(y)-\(m)-\(d)) differs from Foundation") }
      }
    }
    #expect(mismatches == 0)
  }

  @Test("zone table offsets agree with Foundation", arguments: CalendarTestSupport.zones)
  func zoneTableAgreesWithFoundation(zoneID: String) throws {
    let zone = try #require(TimeZone(identifier: zoneID))
    let table = try #require(Zone.named(zoneID)).table
    // Every 5 hours over 1990-2045, and around every offset change.
    var t: Int64 = 631_152_000
    while t < 2_398_291_200 {
      #expect(table.offset(at: t) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))), "\(zoneID) at \(t)")
      t += 5 * 3600
    }
    for change in table.transitions where change > 631_152_000 && change < 2_398_291_200 {
      for u in [change - 1, change, change + 1] {
        #expect(table.offset(at: u) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(u))))
      }
    }
    // The far future, read from the table's repeating last 400 years.
    var rng = SeededGenerator(seed: 7)
    for _ in 0..<300 {
      let u = Int64.random(in: 16_000_000_000...200_000_000_000, using: &rng)
      #expect(table.offset(at: u) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(u))), "\(zoneID) at \(u)")
    }
  }

  @Test func resolvesWallTimes() throws {
    let berlin = try #require(Zone.named("Europe/Berlin")).table
    // 2027-03-28 02:30 local (gap) and 2026-10-25 02:30 local (overlap), as wall seconds.
    let springDay = Int64(CivilDate.dayNumber(year: 2027, month: 3, day: 28)) * 86_400
    let fallDay = Int64(CivilDate.dayNumber(year: 2026, month: 10, day: 25)) * 86_400
    #expect(berlin.resolve(wall: springDay + 9000) == .skipped(gapEnd: springDay + 3600))
    #expect(berlin.resolve(wall: springDay + 7200) == .skipped(gapEnd: springDay + 3600))
    #expect(berlin.resolve(wall: springDay + 10_800) == .single(springDay + 3600))
    #expect(berlin.resolve(wall: fallDay + 9000) == .repeated(fallDay + 1800, fallDay + 5400))
    #expect(berlin.resolve(wall: fallDay + 10_800) == .single(fallDay + 7200))
    // Just after the fall-back, the earliest wall time still ahead is 02:00, not 02:00:01+.
    #expect(berlin.earliestWall(after: fallDay + 1800) == fallDay + 7200)
    // One second before the spring-forward (at 01:00Z), the skipped 02:00 ..< 03:00 still have
    // their gap's end ahead: the walk starts at 02:00, not 03:00.
    let jump = springDay + 3600
    #expect(berlin.earliestWall(after: jump - 2) == springDay + 7200 - 1)
    #expect(berlin.earliestWall(after: jump - 1) == springDay + 7200)
    #expect(berlin.earliestWall(after: jump) == springDay + 10_800 + 1)
  }

  @Test func showsDayIsFalseOnlyForADaySkippedWhole() throws {
    let apia = try #require(Zone.named("Pacific/Apia")).table
    let skipped = CivilDate.dayNumber(year: 2011, month: 12, day: 30)
    #expect(!apia.showsDay(skipped))
    #expect(apia.showsDay(skipped - 1))
    #expect(apia.showsDay(skipped + 1))
    // A day whose first hour is skipped (Sao Paulo's midnight change) exists.
    let saoPaulo = try #require(Zone.named("America/Sao_Paulo")).table
    #expect(saoPaulo.showsDay(CivilDate.dayNumber(year: 2018, month: 11, day: 4)))
    let berlin = try #require(Zone.named("Europe/Berlin")).table
    #expect(berlin.showsDay(CivilDate.dayNumber(year: 2027, month: 3, day: 28)))
  }
}
