import ChimeCore
import Foundation
import Testing

/// `--until` and `--count` on repeating interval and calendar triggers: the planner stops
/// after the last fire they allow.
@Suite struct RepeatEndTests {
  static let t0 = Instant(unixMillis: 1_800_000_000_000)

  @Test func countStopsAfterTheLastFire() {
    let trigger = Trigger.timeInterval(TimeIntervalTrigger(seconds: 60, repeats: true, end: RepeatEnd(count: 3)))
    // After fires 1 and 2 there is a next; after the third, none.
    #expect(TriggerPlanner.nextFire(of: trigger, due: Self.t0, now: Self.t0, fired: 1) == Self.t0.adding(seconds: 60))
    #expect(TriggerPlanner.nextFire(of: trigger, due: Self.t0, now: Self.t0, fired: 2) == Self.t0.adding(seconds: 60))
    #expect(TriggerPlanner.nextFire(of: trigger, due: Self.t0, now: Self.t0, fired: 3) == nil)
    // The fire plan counts the fires before this one.
    let request = NotificationRequest(identifier: "x", content: NotificationContent(title: "x"), trigger: trigger)
    #expect(FirePlan.decide(request, due: Self.t0, now: Self.t0, missedGraceMillis: 1000, zone: .utc, firedBefore: 1).next != nil)
    #expect(FirePlan.decide(request, due: Self.t0, now: Self.t0, missedGraceMillis: 1000, zone: .utc, firedBefore: 2).next == nil)
  }

  @Test func untilIsInclusive() throws {
    var c = CalendarComponents()
    c.hour = 9
    c.timeZone = "UTC"
    let until = Instant(try Date("2027-01-03T09:00:00Z", strategy: .iso8601))
    let trigger = Trigger.calendar(CalendarTrigger(components: c, repeats: true, end: RepeatEnd(until: until)))
    let jan2 = Instant(try Date("2027-01-02T09:00:00Z", strategy: .iso8601))
    #expect(TriggerPlanner.nextFire(of: trigger, due: jan2, now: jan2) == until)
    #expect(TriggerPlanner.nextFire(of: trigger, due: until, now: until) == nil)
    // A first fire after the end: nothing to schedule.
    let late = Instant(try Date("2027-01-03T10:00:00Z", strategy: .iso8601))
    let error = try #require(throws: ChimeError.self) { try TriggerPlanner.firstFire(of: trigger, added: late) }
    #expect(error.has(.notificationInvalidNoDate) && error.field == "request.trigger.end.until")
  }

  @Test func anEndNeedsARepeatingTriggerAndAPositiveCount() throws {
    let once = Trigger.timeInterval(TimeIntervalTrigger(seconds: 60, repeats: false, end: RepeatEnd(count: 2)))
    let notRepeating = try #require(throws: ChimeError.self) { try RequestValidator.validate(once, field: "request.trigger") }
    #expect(notRepeating.field == "request.trigger.time_interval.end")
    var c = CalendarComponents()
    c.hour = 9
    let zero = Trigger.calendar(CalendarTrigger(components: c, repeats: true, end: RepeatEnd(count: 0)))
    let count = try #require(throws: ChimeError.self) { try RequestValidator.validate(zero, field: "request.trigger") }
    #expect(count.field == "request.trigger.calendar.end.count")
  }
}
