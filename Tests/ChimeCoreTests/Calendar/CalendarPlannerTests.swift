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
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
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

  @Test func nonRepeatingAndRunOut() {
    let once = S.trigger(zone: "UTC", repeats: false) { $0.hour = 9 }
    #expect(TriggerPlanner.nextFire(of: .calendar(once), due: S.instant("2026-05-01T09:00:00Z"), now: S.instant("2026-05-01T09:00:00Z")) == nil)
    let lastYear = S.trigger(zone: "UTC", repeats: true) { $0.year = 2026; $0.month = 12; $0.day = 31; $0.hour = 9 }
    #expect(TriggerPlanner.nextFire(of: .calendar(lastYear), due: S.instant("2026-12-31T09:00:00Z"), now: S.instant("2026-12-31T09:00:00Z")) == nil)
  }
}
