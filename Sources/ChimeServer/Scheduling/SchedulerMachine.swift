import ChimeCore

/// The scheduler's decisions as a state machine: it takes events (started, a key committed, the
/// timer ticked, a fire finished, a refill read returned, the clock moved) and returns the
/// actions the driver carries out (arm the timer, fire keys, read the next keys from the
/// store). No loop, no timer, no store: tests drive it by hand with any clock.
///
/// It holds the bounded window of the soonest keys (see `ScheduleWindow`) and the keys whose
/// fire failed for a transient reason, to be tried again a little later.
struct SchedulerMachine {
  struct Configuration {
    var windowCapacity = 1024
    var firesPerTick = 512
    /// The timer never sleeps longer: the wall clock may move under a monotonic timer.
    var maxSleepMillis: Int64 = 60_000
    var retryDelayMillis: Int64 = 1000
    /// Past this many, failed keys are left to a later refill from the store's index.
    var maxRetries = 1024
  }

  enum Action: Equatable {
    /// (Re-)arm the one timer.
    case arm(afterMillis: Int64)
    /// Fire these keys now; each answers with `fireFinished`.
    case fire([ScheduleKey])
    /// Read the store's soonest keys after `after` (nil: from the start), at most `limit`;
    /// answer with `refillFinished` or `refillFailed`.
    case refill(after: ScheduleKey?, limit: Int)
  }

  /// How one fire ended.
  enum FireResult: Equatable {
    /// Committed; `next` is the key of a repeating request.
    case fired(next: ScheduleKey?)
    /// The row had changed; nothing was fired.
    case stale
    /// The store could not commit now (unavailable, full): try again after a delay.
    case failedTransiently
    /// Cannot succeed (an unreadable row): the row stays in the store until a restart.
    case failedPermanently
  }

  let configuration: Configuration
  private(set) var window: ScheduleWindow
  private var retries: [(key: ScheduleKey, at: Instant)] = []
  private(set) var stopped = false
  private(set) var firesInFlight = 0
  /// While set, due keys of apps whose id starts with it are held back (`parked`) instead of
  /// fired, until `release`: the calendars' start-up scan decides first what fell due while
  /// chimed was stopped (acknowledged elsewhere, moved, deleted).
  private(set) var holding: String?
  private(set) var parked: [ScheduleKey] = []

  init(configuration: Configuration) {
    self.configuration = configuration
    window = ScheduleWindow(capacity: configuration.windowCapacity)
  }

  var retryCount: Int { retries.count }

  mutating func start(now: Instant) -> [Action] {
    refillIfNeeded() + arm(now: now)
  }

  mutating func stop() {
    stopped = true
  }

  /// A request was committed with this schedule key.
  mutating func scheduled(_ key: ScheduleKey, now: Instant) -> [Action] {
    window.insert(key)
    return arm(now: now)
  }

  /// The wall clock or the zone moved: look at the due times again.
  mutating func clockChanged(now: Instant) -> [Action] {
    arm(now: now)
  }

  /// Holds back the keys of apps whose id starts with `prefix` until `release`.
  mutating func hold(appsWithPrefix prefix: String) {
    holding = prefix
  }

  /// Ends the hold: the keys held back are due again (fired at the next tick).
  mutating func release(now: Instant) -> [Action] {
    holding = nil
    for key in parked { window.insert(key) }
    parked.removeAll()
    return stopped ? [] : arm(now: now)
  }

  /// The timer went off.
  mutating func tick(now: Instant) -> [Action] {
    guard !stopped else { return [] }
    var due = window.popDue(now: now, limit: configuration.firesPerTick)
    if !retries.isEmpty {
      due += retries.filter { $0.at <= now }.map(\.key)
      retries.removeAll { $0.at <= now }
    }
    if let holding {
      let held = { (key: ScheduleKey) in key.app.utf8.starts(with: holding.utf8) }
      parked += due.filter(held)
      due.removeAll(where: held)
    }
    firesInFlight += due.count
    var actions: [Action] = due.isEmpty ? [] : [.fire(due)]
    actions += refillIfNeeded()
    return actions + arm(now: now)
  }

  mutating func fireFinished(_ key: ScheduleKey, _ result: FireResult, now: Instant) -> [Action] {
    firesInFlight -= 1
    switch result {
    case .fired(let next?):
      window.insert(next)
    case .fired(nil), .stale, .failedPermanently:
      break
    case .failedTransiently:
      if retries.count < configuration.maxRetries {
        retries.append((key, now.adding(millis: configuration.retryDelayMillis)))
      }
    }
    guard !stopped else { return [] }
    return refillIfNeeded() + arm(now: now)
  }

  mutating func refillFinished(_ keys: [ScheduleKey], now: Instant) -> [Action] {
    window.finishRefill(keys, limit: configuration.windowCapacity)
    return stopped ? [] : arm(now: now)
  }

  mutating func refillFailed(now: Instant) -> [Action] {
    window.failRefill()
    return stopped ? [] : arm(now: now)
  }

  private mutating func refillIfNeeded() -> [Action] {
    guard !stopped else { return [] }
    let (needed, after) = window.refillNeeded()
    guard needed else { return [] }
    window.beginRefill()
    return [.refill(after: after, limit: configuration.windowCapacity)]
  }

  /// The earliest due key or retry held, which the timer waits for (nil: none held).
  var nextWake: Instant? {
    [window.earliest?.due, retries.map(\.at).min()].compactMap({ $0 }).min()
  }

  /// The timer's next wait: until the earliest key or retry, never longer than the maximum
  /// sleep; nothing while a refill that may bring an earlier key is in flight and nothing is held.
  private func arm(now: Instant) -> [Action] {
    guard !stopped else { return [] }
    guard let due = nextWake else {
      return window.refillInFlight ? [] : [.arm(afterMillis: configuration.maxSleepMillis)]
    }
    return [.arm(afterMillis: min(max(due.millis(since: now), 0), configuration.maxSleepMillis))]
  }
}
