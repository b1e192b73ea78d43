import ChimeCore
import ChimeStore
import Logging

/// Fires pending requests on time with one libuv timer armed for the earliest key in a
/// bounded window (see `ScheduleWindow`), refilled from the store's index off the loop.
///
/// A fire is one store transaction (delivered row + pending advanced or removed); events
/// follow the commit. Due times are wall-clock instants while libuv timers run on the
/// monotonic clock, so the timer never sleeps longer than `maxSleepMillis` before looking at
/// the wall clock again, and `replan()` re-arms at once when the clock is known to have moved.
final class Scheduler {
  struct Configuration {
    var windowCapacity = 1024
    var firesPerTick = 512
    var missedGraceMillis: Int64 = 2000
    var maxSleepMillis: Int64 = 60_000
  }

  private let loop: EventLoop
  private let database: ChimeDatabase
  private let writer: GroupCommitWriter
  private let clock: any WallClock
  private let configuration: Configuration
  private let logger: Logger
  private let onFired: (ScheduleKey, MutationOutcome) -> Void
  private var window: ScheduleWindow
  private var timer: LoopTimer?
  private var stopped = false
  private var firesInFlight = 0

  init(loop: EventLoop, database: ChimeDatabase, writer: GroupCommitWriter, clock: any WallClock,
       configuration: Configuration, logger: Logger, onFired: @escaping (ScheduleKey, MutationOutcome) -> Void) {
    self.loop = loop
    self.database = database
    self.writer = writer
    self.clock = clock
    self.configuration = configuration
    self.logger = logger
    self.onFired = onFired
    self.window = ScheduleWindow(capacity: configuration.windowCapacity)
  }

  func start() {
    timer = LoopTimer(loop: loop) { [unowned self] in tick() }
    refillIfNeeded()
  }

  func stop() {
    stopped = true
    timer?.close()
    timer = nil
  }

  /// Keys currently held in memory (bounded by about twice the window capacity).
  var windowCount: Int { window.count }

  /// A request was committed with this schedule key.
  func scheduled(_ key: ScheduleKey) {
    window.insert(key)
    arm()
  }

  /// The wall clock or the time zone changed: look again now.
  func replan() {
    arm()
  }

  private func tick() {
    guard !stopped else { return }
    let now = clock.now()
    let due = window.popDue(now: now, limit: configuration.firesPerTick)
    for key in due { fire(key) }
    refillIfNeeded()
    arm()
  }

  private func fire(_ key: ScheduleKey) {
    firesInFlight += 1
    let mutation = Mutation.fire(key: key, now: clock.now(), missedGraceMillis: configuration.missedGraceMillis)
    writer.submit(mutation) { [self] result in
      firesInFlight -= 1
      switch result {
      case .success(let outcome):
        if let next = outcome.next { window.insert(next) }
        if !outcome.stale { onFired(key, outcome) }
      case .failure(let error):
        // The row is unchanged in the store; put the key back so it is retried.
        logger.error("fire failed; will retry", metadata: ["key": "\(key)", "error": "\(error)"])
        window.insert(key)
      }
      guard !stopped else { return }
      refillIfNeeded()
      arm()
    }
  }

  private func refillIfNeeded() {
    guard !stopped else { return }
    let (needed, after) = window.refillNeeded()
    guard needed else { return }
    window.beginRefill()
    let limit = configuration.windowCapacity
    let database = self.database
    loop.runBlocking({ () -> Result<[ScheduleKey], ChimeError> in
      do throws(ChimeError) { return .success(try database.soonest(after: after, limit: limit)) } catch { return .failure(error) }
    }, then: { [self] result in
      switch result {
      case .success(let keys):
        window.finishRefill(keys, limit: limit)
      case .failure(let error):
        logger.error("schedule refill failed", metadata: ["error": "\(error)"])
        window.failRefill()
      }
      guard !stopped else { return }
      arm()
    })
  }

  private func arm() {
    guard !stopped, let timer else { return }
    guard let earliest = window.earliest else {
      if window.refillInFlight { return }
      timer.arm(afterMillis: UInt64(configuration.maxSleepMillis))
      return
    }
    let wait = earliest.due.millis(since: clock.now())
    let millis = min(max(wait, 0), configuration.maxSleepMillis)
    timer.arm(afterMillis: UInt64(millis))
  }
}
