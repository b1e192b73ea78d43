import ChimeCore
import Foundation
import Testing

/// Several weekdays in one calendar trigger (`weekday=mon-fri`): any of them matches, with the
/// calendar rule's DST behaviour (a day unit: the hour is pinned, the wall clock is followed).
@Suite struct CalendarWeekdaySetTests {
  typealias S = CalendarTestSupport

  func local(_ t: CalendarTrigger, after: String, count: Int) -> [String] {
    S.fires(t, after: after, count: count).map(\.localISO8601)
  }

  @Test func workingDaysAtNine() {
    // 2027-01-08 is a Friday.
    let t = S.trigger(zone: "Europe/Berlin") { $0.weekdays = [2, 3, 4, 5, 6]; $0.hour = 9 }
    #expect(local(t, after: "2027-01-07T09:00:00Z", count: 4)
      == ["2027-01-08T09:00:00+01:00", "2027-01-11T09:00:00+01:00", "2027-01-12T09:00:00+01:00", "2027-01-13T09:00:00+01:00"])
  }

  @Test func aSetWithoutATimeFiresAtMidnightOnEachDay() {
    let t = S.trigger(zone: "UTC") { $0.weekdays = [1, 7] }
    #expect(local(t, after: "2027-01-07T00:00:00Z", count: 3)
      == ["2027-01-09T00:00:00+00:00", "2027-01-10T00:00:00+00:00", "2027-01-16T00:00:00+00:00"])
  }

  @Test func withAnOrdinalTheSetIsTakenInThatWeekOfTheMonth() {
    // Days 1-7 of February 2027 (Monday 1 to Sunday 7) that are Monday to Friday.
    let first = S.trigger(zone: "UTC") { $0.weekdays = [2, 3, 4, 5, 6]; $0.weekdayOrdinal = 1; $0.month = 2; $0.hour = 8 }
    #expect(local(first, after: "2027-01-01T00:00:00Z", count: 6)
      == ["2027-02-01T08:00:00+00:00", "2027-02-02T08:00:00+00:00", "2027-02-03T08:00:00+00:00", "2027-02-04T08:00:00+00:00",
          "2027-02-05T08:00:00+00:00", "2028-02-01T08:00:00+00:00"])
    // The last 7 days of March 2027 (25-31) that are Saturday or Sunday.
    let last = S.trigger(zone: "UTC") { $0.weekdays = [1, 7]; $0.weekdayOrdinal = -1; $0.month = 3; $0.hour = 8 }
    #expect(local(last, after: "2027-01-01T00:00:00Z", count: 2) == ["2027-03-27T08:00:00+00:00", "2027-03-28T08:00:00+00:00"])
  }

  @Test func theCalendarRulesDSTBehaviourHolds() {
    // Europe/Berlin springs forward on Sunday 2027-03-28 at 02:00: 02:30 fires at 03:00 +02:00
    // under --dst-gap next, not at all under skip; the other days of the set are untouched.
    let next = S.trigger(zone: "Europe/Berlin") { $0.weekdays = [1, 2]; $0.hour = 2; $0.minute = 30 }
    let fires = S.fires(next, after: "2027-03-27T00:00:00Z", count: 2)
    #expect(fires.map(\.localISO8601) == ["2027-03-28T03:00:00+02:00", "2027-03-29T02:30:00+02:00"])
    #expect(fires[0].dstNote == "02:30 does not exist on 2027-03-28 (DST gap); fires at 03:00 +02:00")
    var skip = next
    skip.dstGap = .skip
    #expect(local(skip, after: "2027-03-27T00:00:00Z", count: 1) == ["2027-03-29T02:30:00+02:00"])
  }

  @Test func validation() throws {
    var both = CalendarComponents()
    both.weekday = 2
    both.weekdays = [3, 4]
    both.hour = 9
    let twice = try #require(throws: ChimeError.self) { try CalendarEngine.validate(CalendarTrigger(components: both), field: "t") }
    #expect(twice.has(.invalidDateComponent) && twice.field == "t.components.weekdays")
    var outOfRange = CalendarComponents()
    outOfRange.weekdays = [2, 8]
    let range = try #require(throws: ChimeError.self) { try CalendarEngine.validate(CalendarTrigger(components: outOfRange), field: "t") }
    #expect(range.has(.invalidDateComponent) && range.field == "t.components.weekdays")
    var fine = CalendarComponents()
    fine.weekdays = [2, 6]
    try CalendarEngine.validate(CalendarTrigger(components: fine), field: "t")
  }
}
