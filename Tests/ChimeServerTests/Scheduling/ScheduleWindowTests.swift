import ChimeCore
@testable import ChimeServer
import Testing

@Suite struct ScheduleWindowTests {
  func key(_ ms: Int64, _ id: String = "r", app: String = "a") -> ScheduleKey {
    ScheduleKey(due: Instant(unixMillis: ms), app: app, identifier: id)
  }

  @Test func startsEmptyAndAsksForARefillFromTheStart() {
    let window = ScheduleWindow(capacity: 4)
    let (needed, after) = window.refillNeeded()
    #expect(needed)
    #expect(after == nil)
  }

  @Test func ignoresInsertsBeforeTheFirstLoadUnlessARefillIsRunning() {
    var window = ScheduleWindow(capacity: 4)
    window.insert(key(1))
    #expect(window.count == 0)  // the refill will read it from the store
    window.beginRefill()
    window.insert(key(2, "late"))
    window.finishRefill([key(1)], limit: 4)
    #expect(window.count == 2)  // complete: the late key is covered
    #expect(window.horizon == .complete)
  }

  @Test func fullRefillSetsAHorizonAndKeysBeyondItStayInTheStore() {
    var window = ScheduleWindow(capacity: 2)
    window.beginRefill()
    window.finishRefill([key(10, "a"), key(20, "b")], limit: 2)
    #expect(window.horizon == .upTo(key(20, "b")))
    window.insert(key(30, "c"))
    #expect(window.count == 2)
    window.insert(key(15, "d"))
    #expect(window.count == 3)
  }

  @Test func popsDueKeysInOrderUpToALimit() {
    var window = ScheduleWindow(capacity: 8)
    window.beginRefill()
    window.finishRefill([key(5, "x"), key(1, "y"), key(3, "z")].sorted(), limit: 8)
    let due = window.popDue(now: Instant(unixMillis: 4), limit: 10)
    #expect(due.map(\.identifier) == ["y", "z"])
    #expect(window.popDue(now: Instant(unixMillis: 100), limit: 0).isEmpty)
    #expect(window.earliest?.identifier == "x")
  }

  @Test func trimsToCapacityAndLowersTheHorizon() {
    var window = ScheduleWindow(capacity: 3)
    window.beginRefill()
    window.finishRefill([], limit: 3)  // complete
    for i in 0..<7 { window.insert(key(Int64(i), "k\(i)")) }
    // 7 > 2 × 3 → trimmed to 3, horizon at the largest kept key.
    #expect(window.count == 3)
    #expect(window.horizon == .upTo(key(2, "k2")))
    // Refill wanted once the window runs low.
    _ = window.popDue(now: Instant(unixMillis: 2), limit: 10)
    let (needed, after) = window.refillNeeded()
    #expect(needed)
    #expect(after == key(2, "k2"))
  }

  @Test func keysAddedDuringARefillBeyondTheNewHorizonAreLeftToTheStore() {
    var window = ScheduleWindow(capacity: 2)
    window.beginRefill()
    window.insert(key(50, "late-far"))
    window.insert(key(5, "late-near"))
    window.finishRefill([key(10, "a"), key(20, "b")], limit: 2)
    #expect(window.horizon == .upTo(key(20, "b")))
    let all = window.popDue(now: Instant(unixMillis: 1000), limit: 10).map(\.identifier)
    #expect(all == ["late-near", "a", "b"])
  }
}
