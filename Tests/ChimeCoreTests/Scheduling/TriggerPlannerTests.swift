import ChimeCore
import Testing

@Suite struct TriggerPlannerTests {
  let t0 = Instant(unixMillis: 1_800_000_000_000)

  @Test func noTriggerFiresNow() throws {
    #expect(try TriggerPlanner.firstFire(of: nil, added: t0) == t0)
  }

  @Test func intervalIsFixedFromTheAddInstant() throws {
    let first = try TriggerPlanner.firstFire(of: .timeInterval(.init(seconds: 90.5)), added: t0)
    #expect(first == t0.adding(millis: 90_500))
  }

  @Test func oneShotDoesNotRepeat() {
    #expect(TriggerPlanner.nextFire(of: .timeInterval(.init(seconds: 90)), due: t0, now: t0) == nil)
  }

  @Test func repeatingAdvancesByOneStepWhenOnTime() {
    let trigger = Trigger.timeInterval(.init(seconds: 60, repeats: true))
    #expect(TriggerPlanner.nextFire(of: trigger, due: t0, now: t0) == t0.adding(seconds: 60))
    #expect(TriggerPlanner.nextFire(of: trigger, due: t0, now: t0.adding(millis: 5)) == t0.adding(seconds: 60))
  }

  @Test func repeatingSkipsMissedOccurrencesInsteadOfReplayingThem() {
    let trigger = Trigger.timeInterval(.init(seconds: 60, repeats: true))
    // Down for 10 minutes and 30 seconds: the next fire is the first one in the future,
    // still on the original grid.
    let now = t0.adding(seconds: 630)
    let next = TriggerPlanner.nextFire(of: trigger, due: t0, now: now)
    #expect(next == t0.adding(seconds: 660))
    // Exactly on a grid point: strictly after now.
    #expect(TriggerPlanner.nextFire(of: trigger, due: t0, now: t0.adding(seconds: 600)) == t0.adding(seconds: 660))
  }
}
