import ChimeCore
import Foundation
import Testing

/// `TriggerPlanner` with calendar triggers: first fire, next fire, missed occurrences.
@Suite struct CalendarPlannerTests {
  typealias S = CalendarTestSupport

  @Test func firstFireIsTheNextMatch() throws {
    let t = S.trigger(zone: "Europe/Berlin") { $0.weekday = 2; $0.hour = 9; $0.minute = 30 }
    let added = S.instant("2026-11-18T12:00:00Z")  // a Wednesday
    #expect(try TriggerPlanner.firstFire(of: .calendar(t), added: added) == S.instant("2026-11-23T08:30:00Z"))
  }

  @Test func floatingFollowsTheZonePassedIn() throws {
    let t = S.trigger { $0.hour = 8 }
    let added = S.instant("2026-11-18T12:00:00Z")
    let tokyo = try #require(Zone.named("Asia/Tokyo"))
    let berlin = try #require(Zone.named("Europe/Berlin"))
    #expect(try TriggerPlanner.firstFire(of: .calendar(t), added: added, zone: tokyo) == S.instant("2026-11-18T23:00:00Z"))
    #expect(try TriggerPlanner.firstFire(of: .calendar(t), added: added, zone: berlin) == S.instant("2026-11-19T07:00:00Z"))
    #expect(TriggerPlanner.nextFire(of: .calendar(t), due: S.instant("2026-11-19T07:00:00Z"), now: S.instant("2026-11-19T07:00:00Z"), zone: tokyo)
      == S.instant("2026-11-19T23:00:00Z"))
  }

  @Test func nextFireAfterOnTimeFire() {
    let t = S.trigger(zone: "UTC") { $0.hour = 9 }
    let due = S.instant("2026-05-01T09:00:00Z")
    #expect(TriggerPlanner.nextFire(of: .calendar(t), due: due, now: due) == S.instant("2026-05-02T09:00:00Z"))
    // Fired a little late: still the next day's occurrence.
    #expect(TriggerPlanner.nextFire(of: .calendar(t), due: due, now: due.adding(seconds: 5)) == S.instant("2026-05-02T09:00:00Z"))
  }

  /// Missed occurrences are coalesced: the next fire is the first match after now.
  @Test func missedOccurrencesAreNotReplayed() {
    let t = S.trigger(zone: "UTC") { $0.hour = 9 }
    let due = S.instant("2026-05-01T09:00:00Z")
    let now = S.instant("2026-05-20T10:00:00Z")
    #expect(TriggerPlanner.nextFire(of: .calendar(t), due: due, now: now) == S.instant("2026-05-21T09:00:00Z"))
    // A clock set back before the due instant still moves strictly past the due one.
    #expect(TriggerPlanner.nextFire(of: .calendar(t), due: due, now: S.instant("2026-04-01T00:00:00Z")) == S.instant("2026-05-02T09:00:00Z"))
  }

  /// After a fire due at `due`, handled at `now`, the next one, across clock changes.
  struct NextCase: CustomTestStringConvertible, Sendable {
    var name: String
    var trigger: CalendarTrigger
    var due: String
    var now: String
    var next: String
    var testDescription: String { name }
  }

  static let acrossClockChanges: [NextCase] = [
    NextCase(name: "hourly, on time at the first 01:08: the second 01:08 is next",
             trigger: S.trigger(zone: "Europe/London") { $0.minute = 8 },
             due: "1995-10-22T00:08:00Z", now: "1995-10-22T00:08:00Z", next: "1995-10-22T01:08:00Z"),
    NextCase(name: "hourly, down through the overlap: the first occurrence after now",
             trigger: S.trigger(zone: "Europe/London") { $0.minute = 8 },
             due: "1995-10-21T23:08:00Z", now: "1995-10-22T01:30:00Z", next: "1995-10-22T02:08:00Z"),
    NextCase(name: "hourly, at 01:30 before the gap: 03:30, one real hour later",
             trigger: S.trigger(zone: "America/New_York") { $0.minute = 30 },
             due: "2012-03-11T06:30:00Z", now: "2012-03-11T06:30:00Z", next: "2012-03-11T07:30:00Z"),
    NextCase(name: "daily 02:30 at the first occurrence: the next day",
             trigger: S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 },
             due: "2026-10-25T00:30:00Z", now: "2026-10-25T00:30:00Z", next: "2026-10-26T01:30:00Z"),
    NextCase(name: "daily 02:30 at the first occurrence, both: the second",
             trigger: S.trigger(zone: "Europe/Berlin", overlap: .both) { $0.hour = 2; $0.minute = 30 },
             due: "2026-10-25T00:30:00Z", now: "2026-10-25T00:30:00Z", next: "2026-10-25T01:30:00Z"),
    NextCase(name: "daily 02:30, woken 1 ms before the jump: the gap's occurrence",
             trigger: S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 },
             due: "2021-03-27T01:30:00Z", now: "2021-03-28T00:59:59.999Z", next: "2021-03-28T01:00:00Z"),
    NextCase(name: "daily 02:30, woken 1 s before the jump: the gap's occurrence",
             trigger: S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 },
             due: "2021-03-27T01:30:00Z", now: "2021-03-28T00:59:59Z", next: "2021-03-28T01:00:00Z"),
    NextCase(name: "daily 09:00 in Apia: the skipped day is passed over",
             trigger: S.trigger(zone: "Pacific/Apia") { $0.hour = 9 },
             due: "2011-12-29T19:00:00Z", now: "2011-12-29T19:00:00Z", next: "2011-12-30T19:00:00Z"),
    NextCase(name: "daily 23:19 in Apia: no fire at the jump, 41 minutes later",
             trigger: S.trigger(zone: "Pacific/Apia") { $0.hour = 23; $0.minute = 19 },
             due: "2011-12-30T09:19:00Z", now: "2011-12-30T09:19:00Z", next: "2011-12-31T09:19:00Z"),
  ]

  @Test("the next fire across clock changes", arguments: acrossClockChanges)
  func nextFireAcrossClockChanges(_ c: NextCase) {
    #expect(TriggerPlanner.nextFire(of: .calendar(c.trigger), due: S.instant(c.due), now: S.instant(c.now)) == S.instant(c.next))
  }

  @Test func nonRepeatingAndRunOut() {
    let once = S.trigger(zone: "UTC", repeats: false) { $0.hour = 9 }
    #expect(TriggerPlanner.nextFire(of: .calendar(once), due: S.instant("2026-05-01T09:00:00Z"), now: S.instant("2026-05-01T09:00:00Z")) == nil)
    let lastYear = S.trigger(zone: "UTC", repeats: true) { $0.year = 2026; $0.month = 12; $0.day = 31; $0.hour = 9 }
    #expect(TriggerPlanner.nextFire(of: .calendar(lastYear), due: S.instant("2026-12-31T09:00:00Z"), now: S.instant("2026-12-31T09:00:00Z")) == nil)
  }
}
