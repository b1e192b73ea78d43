import ChimeCore
import Testing
@testable import ChimeServer

/// The scheduler's decisions, driven by hand: no loop, no timer, no store.
@Suite struct SchedulerMachineTests {
  static let t0 = Instant(unixMillis: 1_800_000_000_000)

  static func key(_ seconds: Int64, _ id: String = "r") -> ScheduleKey {
    ScheduleKey(due: t0.adding(millis: seconds * 1000), app: "app", identifier: id)
  }

  static func machine(capacity: Int = 4) -> SchedulerMachine {
    SchedulerMachine(configuration: .init(windowCapacity: capacity, firesPerTick: 3, maxSleepMillis: 60_000, retryDelayMillis: 1000, maxRetries: 2))
  }

  @Test func startReadsTheIndexAndWaitsForItBeforeArming() {
    var m = Self.machine()
    #expect(m.start(now: Self.t0) == [.refill(after: nil, limit: 4)])
    #expect(m.refillFinished([Self.key(10), Self.key(20)], now: Self.t0) == [.arm(afterMillis: 10_000)])
  }

  @Test func anEmptyStoreSleepsAtMostTheMaximum() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    #expect(m.refillFinished([], now: Self.t0) == [.arm(afterMillis: 60_000)])
    // A key far away still wakes the timer within the maximum sleep: the wall clock may move.
    #expect(m.scheduled(Self.key(3600), now: Self.t0) == [.arm(afterMillis: 60_000)])
  }

  @Test func aTickFiresWhatIsDueInOrderAndNoMoreThanPerTick() {
    var m = Self.machine(capacity: 8)
    _ = m.start(now: Self.t0)
    _ = m.refillFinished((1...5).map { Self.key(Int64($0), "k\($0)") }, now: Self.t0)
    let actions = m.tick(now: Self.t0.adding(millis: 10_000))
    #expect(actions.first == .fire([Self.key(1, "k1"), Self.key(2, "k2"), Self.key(3, "k3")]))
    #expect(actions.last == .arm(afterMillis: 0), "two more are due: look again at once")
    #expect(m.firesInFlight == 3)
  }

  /// The calendars' start-up hold: their due keys wait for `release`, other apps' fire.
  @Test func heldAppsWaitForTheReleaseAndTheOthersFire() {
    var m = Self.machine(capacity: 8)
    m.hold(appsWithPrefix: "io.github.chime.calendar.")
    _ = m.start(now: Self.t0)
    let calendar = ScheduleKey(due: Self.t0.adding(millis: 1000), app: "io.github.chime.calendar.work", identifier: "cal-1")
    _ = m.refillFinished([Self.key(1, "k1"), calendar], now: Self.t0)
    let now = Self.t0.adding(millis: 5000)
    #expect(m.tick(now: now).first == .fire([Self.key(1, "k1")]))
    #expect(m.parked == [calendar] && m.nextWake == nil)
    #expect(m.release(now: now) == [.arm(afterMillis: 0)])
    #expect(m.tick(now: now).first == .fire([calendar]))
    #expect(m.holding == nil && m.parked.isEmpty)
  }

  @Test func nothingFiresEarly() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(10)], now: Self.t0)
    #expect(m.tick(now: Self.t0.adding(millis: 9_999)) == [.arm(afterMillis: 1)])
  }

  @Test func aRepeatingFireSchedulesItsNextKey() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(10)], now: Self.t0)
    let now = Self.t0.adding(millis: 10_000)
    #expect(m.tick(now: now).first == .fire([Self.key(10)]))
    #expect(m.fireFinished(Self.key(10), .fired(next: Self.key(70)), now: now) == [.arm(afterMillis: 60_000)])
    #expect(m.fireFinished(Self.key(70), .stale, now: now).isEmpty == false)
  }

  @Test func aTransientFailureIsRetriedAfterTheDelayAndTheRetriesAreBounded() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(0, "a"), Self.key(0, "b"), Self.key(0, "c")], now: Self.t0)
    _ = m.tick(now: Self.t0)
    #expect(m.fireFinished(Self.key(0, "a"), .failedTransiently, now: Self.t0) == [.arm(afterMillis: 1000)])
    _ = m.fireFinished(Self.key(0, "b"), .failedTransiently, now: Self.t0)
    _ = m.fireFinished(Self.key(0, "c"), .failedTransiently, now: Self.t0)
    #expect(m.retryCount == 2, "past the bound a key is left to the store's index")
    #expect(m.tick(now: Self.t0.adding(millis: 999)) == [.arm(afterMillis: 1)])
    #expect(m.tick(now: Self.t0.adding(millis: 1000)).first == .fire([Self.key(0, "a"), Self.key(0, "b")]))
  }

  @Test func aPermanentFailureIsNotRetried() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(0)], now: Self.t0)
    _ = m.tick(now: Self.t0)
    #expect(m.fireFinished(Self.key(0), .failedPermanently, now: Self.t0) == [.arm(afterMillis: 60_000)])
    #expect(m.retryCount == 0)
  }

  @Test func aLowWindowRefillsFromItsHorizon() {
    var m = Self.machine(capacity: 4)
    _ = m.start(now: Self.t0)
    let keys = (1...4).map { Self.key(Int64($0), "k\($0)") }
    _ = m.refillFinished(keys, now: Self.t0)
    #expect(!m.tick(now: Self.t0.adding(millis: 3_000)).contains { if case .refill = $0 { true } else { false } })
    let actions = m.tick(now: Self.t0.adding(millis: 4_000))
    #expect(actions == [.fire([Self.key(4, "k4")]), .refill(after: Self.key(4, "k4"), limit: 4)],
            "the window is empty and the store may hold keys past its horizon: read on; no arm until the read returns")
    #expect(m.refillFailed(now: Self.t0.adding(millis: 4_000)) == [.arm(afterMillis: 60_000)])
    #expect(m.tick(now: Self.t0.adding(millis: 64_000)).contains(.refill(after: Self.key(4, "k4"), limit: 4)), "a failed read is tried again")
  }

  @Test func aStoppedMachineDoesNothing() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(0)], now: Self.t0)
    m.stop()
    #expect(m.tick(now: Self.t0).isEmpty)
    #expect(m.scheduled(Self.key(5), now: Self.t0).isEmpty)
    #expect(m.clockChanged(now: Self.t0).isEmpty)
  }

  @Test func aClockSetBackwardsReArmsForTheLongerWait() {
    var m = Self.machine()
    _ = m.start(now: Self.t0)
    _ = m.refillFinished([Self.key(10)], now: Self.t0)
    #expect(m.clockChanged(now: Self.t0.adding(millis: -50_000)) == [.arm(afterMillis: 60_000)])
    #expect(m.clockChanged(now: Self.t0.adding(millis: 9_000)) == [.arm(afterMillis: 1_000)])
  }
}
