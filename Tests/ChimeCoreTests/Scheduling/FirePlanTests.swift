import ChimeCore
import Foundation
import Testing

/// What a due request becomes, decided with no store and no loop.
@Suite struct FirePlanTests {
  static let due = Instant(unixMillis: 1_800_000_000_000)
  static let grace: Int64 = 2000

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var policy: MissedFirePolicy
    var repeats: Bool
    var lateMillis: Int64
    var delivers: Bool
    var missed: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "on time", policy: .deliver, repeats: false, lateMillis: 0, delivers: true, missed: false),
    Case(name: "late within the grace", policy: .deliver, repeats: false, lateMillis: 2000, delivers: true, missed: false),
    Case(name: "missed, policy deliver", policy: .deliver, repeats: false, lateMillis: 2001, delivers: true, missed: true),
    Case(name: "missed, policy skip", policy: MissedFirePolicy(action: .skip), repeats: true, lateMillis: 60_000, delivers: false, missed: true),
    Case(name: "within the grace, policy skip", policy: MissedFirePolicy(action: .skip), repeats: false, lateMillis: 1000, delivers: true, missed: false),
    Case(name: "missed by less than the bound", policy: MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: 300),
         repeats: true, lateMillis: 299_999, delivers: true, missed: true),
    Case(name: "missed by the bound", policy: MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: 300),
         repeats: true, lateMillis: 300_000, delivers: false, missed: true),
  ]

  @Test(arguments: cases)
  func missedFirePolicies(_ c: Case) {
    let request = NotificationRequest(identifier: "r", content: NotificationContent(title: "t"),
                                      trigger: .timeInterval(TimeIntervalTrigger(seconds: 60, repeats: c.repeats)), missedFire: c.policy)
    let now = Self.due.adding(millis: c.lateMillis)
    let plan = FirePlan.decide(request, due: Self.due, now: now, missedGraceMillis: Self.grace, zone: Zone.named("UTC")!)
    switch plan.delivery {
    case .deliver(let missed):
      #expect(c.delivers)
      #expect(missed == c.missed)
    case .skip(let note):
      #expect(!c.delivers)
      #expect(note.contains("missed by"))
    }
    if c.repeats {
      // Missed occurrences are not replayed: the next one is the first after now.
      let next = try! #require(plan.next)
      #expect(next > now && next.millis(since: Self.due) % 60_000 == 0)
      #expect(next.millis(since: now) <= 60_000)
    } else {
      #expect(plan.next == nil)
    }
  }

  @Test func aRepeatingCalendarTriggerAdvancesInItsZoneAcrossASpringGap() throws {
    // Daily 02:30 in Berlin: on 2021-03-28 the wall clock jumps 02:00 → 03:00, the occurrence
    // fires at the gap's end (03:00 CEST = 01:00Z).
    var components = CalendarComponents()
    components.hour = 2
    components.minute = 30
    components.timeZone = "Europe/Berlin"
    let request = NotificationRequest(identifier: "d", content: NotificationContent(title: "t"),
                                      trigger: .calendar(CalendarTrigger(components: components, repeats: true)))
    let due = Instant(unixMillis: 1_616_808_600_000)  // 2021-03-27T01:30:00Z = 02:30 CET
    let plan = FirePlan.decide(request, due: due, now: due, missedGraceMillis: Self.grace, zone: Zone.named("UTC")!)
    #expect(plan.delivery == .deliver(missed: false))
    #expect(plan.next == Instant(unixMillis: 1_616_893_200_000))  // 2021-03-28T01:00:00Z
  }
}
