import ChimeCore
import Foundation
import Testing

/// Which instants a set of components matches, checked against hand-derived dates (the sparse
/// ones here too: Feb 29, the 5th Friday, week 53).
@Suite struct CalendarMatchingTests {
  typealias S = CalendarTestSupport

  func local(_ t: CalendarTrigger, after: String, count: Int) -> [String] {
    S.fires(t, after: after, count: count).map(\.localISO8601)
  }

  @Test func smallerUnspecifiedComponentsArePinned() {
    #expect(local(S.trigger(zone: "UTC") { $0.hour = 9 }, after: "2026-05-01T10:00:00Z", count: 2)
      == ["2026-05-02T09:00:00+00:00", "2026-05-03T09:00:00+00:00"])
    // minute alone: every hour at :30:00.
    #expect(local(S.trigger(zone: "UTC") { $0.minute = 30 }, after: "2026-05-01T10:30:00Z", count: 2)
      == ["2026-05-01T11:30:00+00:00", "2026-05-01T12:30:00+00:00"])
    // second alone: every minute.
    #expect(local(S.trigger(zone: "UTC") { $0.second = 15 }, after: "2026-05-01T10:00:15Z", count: 2)
      == ["2026-05-01T10:01:15+00:00", "2026-05-01T10:02:15+00:00"])
    // A unit between two given ones stays free.
    #expect(local(S.trigger(zone: "UTC") { $0.hour = 9; $0.second = 30 }, after: "2026-05-01T09:58:00Z", count: 3)
      == ["2026-05-01T09:58:30+00:00", "2026-05-01T09:59:30+00:00", "2026-05-02T09:00:30+00:00"])
    // A weekday alone: midnight.
    #expect(local(S.trigger(zone: "UTC") { $0.weekday = 2 }, after: "2026-05-01T00:00:00Z", count: 2)
      == ["2026-05-04T00:00:00+00:00", "2026-05-11T00:00:00+00:00"])
    // A month with an hour: every day of that month.
    #expect(local(S.trigger(zone: "UTC") { $0.month = 3; $0.hour = 8 }, after: "2026-03-30T12:00:00Z", count: 2)
      == ["2026-03-31T08:00:00+00:00", "2027-03-01T08:00:00+00:00"])
  }

  @Test func strictlyAfter() {
    let t = S.trigger(zone: "UTC") { $0.hour = 9 }
    #expect(local(t, after: "2026-05-01T09:00:00Z", count: 1) == ["2026-05-02T09:00:00+00:00"])
    #expect(local(t, after: "2026-05-01T08:59:59.999Z", count: 1) == ["2026-05-01T09:00:00+00:00"])
    let fire = CalendarEngine.nextFire(after: Instant(unixMillis: S.instant("2026-05-01T09:00:00Z").unixMillis - 1), trigger: t, zone: .utc)
    #expect(fire?.utcISO8601 == "2026-05-01T09:00:00Z")
  }

  /// With no day or time component, the trigger fires on the first day of each run of
  /// matching days.
  @Test func pinnedDays() {
    #expect(local(S.trigger(zone: "UTC") { $0.month = 3 }, after: "2026-03-01T00:00:00Z", count: 2)
      == ["2027-03-01T00:00:00+00:00", "2028-03-01T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.year = 2030 }, after: "2026-03-01T00:00:00Z", count: 2) == ["2030-01-01T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.weekOfYear = 10 }, after: "2026-03-03T00:00:00Z", count: 1) == ["2027-03-08T00:00:00+00:00"])
    // ISO week 1 of 2026 starts on 2025-12-29; with year 2026 its run starts on 1 January.
    #expect(local(S.trigger(zone: "UTC") { $0.weekOfYear = 1; $0.year = 2026 }, after: "2025-06-01T00:00:00Z", count: 2) == ["2026-01-01T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.weekOfYear = 1; $0.yearForWeekOfYear = 2026 }, after: "2025-06-01T00:00:00Z", count: 2) == ["2025-12-29T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.weekdayOrdinal = -1 }, after: "2026-02-01T00:00:00Z", count: 2)
      == ["2026-02-22T00:00:00+00:00", "2026-03-25T00:00:00+00:00"])
  }

  /// Unlike Apple's `.nextTime` (radar 32865247), day 31 never rolls over to the 1st.
  @Test func day31OnlyInLongMonths() {
    #expect(local(S.trigger(zone: "UTC") { $0.day = 31; $0.hour = 8 }, after: "2026-04-01T00:00:00Z", count: 5) == [
      "2026-05-31T08:00:00+00:00", "2026-07-31T08:00:00+00:00", "2026-08-31T08:00:00+00:00",
      "2026-10-31T08:00:00+00:00", "2026-12-31T08:00:00+00:00",
    ])
  }

  @Test func february29() {
    #expect(local(S.trigger(zone: "UTC") { $0.month = 2; $0.day = 29; $0.hour = 12 }, after: "2026-01-01T00:00:00Z", count: 3)
      == ["2028-02-29T12:00:00+00:00", "2032-02-29T12:00:00+00:00", "2036-02-29T12:00:00+00:00"])
    // 2100 is not a leap year.
    #expect(local(S.trigger(zone: "UTC") { $0.month = 2; $0.day = 29 }, after: "2096-03-01T00:00:00Z", count: 1) == ["2104-02-29T00:00:00+00:00"])
    // Feb 29 on a Monday: 2044, then 2072.
    #expect(local(S.trigger(zone: "Europe/Berlin") { $0.month = 2; $0.day = 29; $0.weekday = 2; $0.hour = 9 }, after: "2026-01-01T00:00:00Z", count: 2)
      == ["2044-02-29T09:00:00+01:00", "2072-02-29T09:00:00+01:00"])
  }

  @Test func fifthFriday() {
    #expect(local(S.trigger(zone: "UTC") { $0.weekday = 6; $0.weekdayOrdinal = 5; $0.hour = 8 }, after: "2026-01-01T00:00:00Z", count: 5) == [
      "2026-01-30T08:00:00+00:00", "2026-05-29T08:00:00+00:00", "2026-07-31T08:00:00+00:00",
      "2026-10-30T08:00:00+00:00", "2027-01-29T08:00:00+00:00",
    ])
    // The 5th Friday of February needs Feb 29 on a Friday: 2036, 2064, 2092.
    #expect(local(S.trigger(zone: "UTC") { $0.month = 2; $0.weekday = 6; $0.weekdayOrdinal = 5 }, after: "2026-01-01T00:00:00Z", count: 3)
      == ["2036-02-29T00:00:00+00:00", "2064-02-29T00:00:00+00:00", "2092-02-29T00:00:00+00:00"])
  }

  @Test func ordinals() {
    // 2nd Tuesday of November 2026 (1 November is a Sunday) and the last Friday of February.
    #expect(local(S.trigger(zone: "UTC") { $0.month = 11; $0.weekday = 3; $0.weekdayOrdinal = 2; $0.hour = 10 }, after: "2026-01-01T00:00:00Z", count: 1)
      == ["2026-11-10T10:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.month = 2; $0.weekday = 6; $0.weekdayOrdinal = -1 }, after: "2026-01-01T00:00:00Z", count: 2)
      == ["2026-02-27T00:00:00+00:00", "2027-02-26T00:00:00+00:00"])
  }

  @Test func weeks() {
    // ISO week 53: 2026, 2032, 2037.
    #expect(local(S.trigger(zone: "UTC") { $0.weekOfYear = 53; $0.weekday = 2; $0.hour = 9 }, after: "2026-04-01T00:00:00Z", count: 3)
      == ["2026-12-28T09:00:00+00:00", "2032-12-27T09:00:00+00:00", "2037-12-28T09:00:00+00:00"])
    // Week of month: Monday-start weeks, week 1 holds the 1st. March 2026 starts on a Sunday,
    // so week 2 is 2-8 March.
    #expect(local(S.trigger(zone: "UTC") { $0.month = 3; $0.weekOfMonth = 2; $0.weekday = 4 }, after: "2026-01-01T00:00:00Z", count: 1)
      == ["2026-03-04T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.month = 3; $0.weekOfMonth = 1 }, after: "2026-01-01T00:00:00Z", count: 1)
      == ["2026-03-01T00:00:00+00:00"])
    #expect(local(S.trigger(zone: "UTC") { $0.weekOfMonth = 6; $0.weekday = 3 }, after: "2026-01-01T00:00:00Z", count: 1)
      == ["2026-03-31T00:00:00+00:00"])
  }

  @Test func floatingAndNamedZones() throws {
    let tokyo = try #require(Zone.named("Asia/Tokyo"))
    let floating = S.trigger { $0.hour = 8 }
    let fire = CalendarEngine.nextFire(after: S.instant("2026-05-01T00:00:00Z"), trigger: floating, zone: tokyo)
    #expect(fire?.localISO8601 == "2026-05-02T08:00:00+09:00")
    #expect(fire?.zoneIdentifier == "Asia/Tokyo")
    #expect(CalendarEngine.zoneIdentifier(of: floating, floating: tokyo) == "Asia/Tokyo")
    // A named zone ignores the floating one; an empty name is floating.
    let named = S.trigger(zone: "Asia/Kathmandu") { $0.hour = 8 }
    #expect(CalendarEngine.nextFire(after: S.instant("2026-05-01T00:00:00Z"), trigger: named, zone: tokyo)?.localISO8601 == "2026-05-01T08:00:00+05:45")
    let empty = S.trigger(zone: "") { $0.hour = 8 }
    #expect(CalendarEngine.nextFire(after: S.instant("2026-05-01T00:00:00Z"), trigger: empty, zone: tokyo)?.zoneIdentifier == "Asia/Tokyo")
    // An unknown zone never fires.
    #expect(CalendarEngine.nextFire(after: S.instant("2026-05-01T00:00:00Z"), trigger: S.trigger(zone: "Mars/Olympus") { $0.hour = 8 }, zone: tokyo) == nil)
  }

  @Test func runsOut() {
    let once = S.trigger(zone: "UTC", repeats: false) { $0.year = 2030; $0.month = 6; $0.day = 1; $0.hour = 9 }
    #expect(local(once, after: "2026-01-01T00:00:00Z", count: 5) == ["2030-06-01T09:00:00+00:00"])
    #expect(local(once, after: "2030-06-01T09:00:00Z", count: 5) == [])
    #expect(CalendarEngine.nextFires(after: S.instant("2026-01-01T00:00:00Z"), count: 0, trigger: once, zone: .utc) == [])
  }

  /// Past 2500 the zone table repeats its last 400 years; Foundation computes the far future
  /// from the same rules, so they must still agree.
  @Test func farFutureFollowsTheRules() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = berlin
    for year in [2499, 2500, 2731, 3001, 9998] {
      let t = S.trigger(zone: "Europe/Berlin") { $0.year = year; $0.month = 3; $0.weekday = 1; $0.weekdayOrdinal = -1; $0.hour = 2; $0.minute = 30 }
      let fire = try #require(CalendarEngine.nextFire(after: S.instant("2026-01-01T00:00:00Z"), trigger: t, zone: .utc))
      // The last Sunday of March at 02:30 does not exist: it fires at 03:00 CEST.
      let c = cal.dateComponents([.year, .month, .weekday, .hour, .minute], from: fire.instant.date)
      #expect(c.year == year && c.month == 3 && c.weekday == 1 && c.hour == 3 && c.minute == 0, "\(fire)")
      #expect(fire.utcOffsetSeconds == berlin.secondsFromGMT(for: fire.instant.date))
      #expect(fire.dstNote != nil)
    }
  }

  /// Any instant and any components are safe to pass: out of range they never fire.
  @Test func extremeInstantsAndUnvalidatedInput() {
    let t = S.trigger(zone: "Europe/Berlin") { $0.hour = 9 }
    for ms in [Int64.max, Instant.distantFuture.unixMillis, 253_402_300_799_000] {
      #expect(CalendarEngine.nextFire(after: Instant(unixMillis: ms), trigger: t, zone: .utc) == nil)
    }
    for ms in [Int64.min, Instant.distantPast.unixMillis] {
      let first = CalendarEngine.nextFire(after: Instant(unixMillis: ms), trigger: t, zone: .utc)
      #expect(first?.localISO8601.hasPrefix("0001-01-01T09:00:00") == true, "\(String(describing: first))")
    }
    let unvalidated: [CalendarComponents] = [
      S.components { $0.weekday = 0 }, S.components { $0.hour = 24 }, S.components { $0.day = 0 },
      S.components { $0.weekday = 2; $0.weekdayOrdinal = -3 }, S.components { $0.weekOfYear = -1 },
      S.components { $0.month = 2; $0.day = 30 }, S.components { $0.year = 10_000 }, CalendarComponents(),
    ]
    for c in unvalidated {
      #expect(CalendarEngine.nextFires(after: S.instant("2026-01-01T00:00:00Z"), count: 3, trigger: CalendarTrigger(components: c), zone: .utc) == [])
    }
  }

  @Test func formats() {
    let fire = FireDate(instant: S.instant("2026-09-26T14:00:00Z"), utcOffsetSeconds: 49_500, zoneIdentifier: "Pacific/Chatham")
    #expect(fire.utcISO8601 == "2026-09-26T14:00:00Z")
    #expect(fire.localISO8601 == "2026-09-27T03:45:00+13:45")
    let west = FireDate(instant: S.instant("2026-01-01T00:00:00Z"), utcOffsetSeconds: -12_600, zoneIdentifier: "America/St_Johns")
    #expect(west.localISO8601 == "2025-12-31T20:30:00-03:30")
  }
}
