import ChimeCore
import ChimeStore
import Foundation
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
  /// The zone floating calendar triggers follow now (set by the service).
  var zone: () -> TimeZone = { TimeZone.current }
  /// Looks at a custom sound again at delivery (set by the service, which knows default layouts).
  var soundCheck: SoundRecheck?
  /// Keys whose fire failed for a transient reason (store unavailable, disk full), with the
  /// instant to try again. Bounded: past the bound the store's index still has them and a
  /// refill brings them back.
  private var retries: [(key: ScheduleKey, at: Instant)] = []
  private let maxRetries = 1024
  private let retryDelayMillis: Int64 = 1000

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
    var due = window.popDue(now: now, limit: configuration.firesPerTick)
    if !retries.isEmpty {
      let ready = retries.filter { $0.at <= now }
      retries.removeAll { $0.at <= now }
      due += ready.map(\.key)
    }
    for key in due { fire(key) }
    refillIfNeeded()
    arm()
  }

  private func fire(_ key: ScheduleKey) {
    firesInFlight += 1
    let mutation = Mutation.fire(key: key, now: clock.now(), missedGraceMillis: configuration.missedGraceMillis, zone: zone(),
                                 soundCheck: soundCheck)
    writer.submit(mutation) { [self] result in
      firesInFlight -= 1
      switch result {
      case .success(let outcome):
        if let next = outcome.next { window.insert(next) }
        if !outcome.stale { onFired(key, outcome) }
      case .failure(let error) where error.code == .unavailable || error.code == .resourceExhausted:
        // The row is unchanged in the store: try again a little later, not in a hot loop.
        logger.error("fire failed; will retry", metadata: ["key": "\(key)", "error": "\(error)"])
        if retries.count < maxRetries {
          retries.append((key, clock.now().adding(millis: retryDelayMillis)))
        }
      case .failure(let error):
        // Not transient (an unreadable row): retrying cannot help. The row stays pending in the
        // store and is tried again after a restart.
        logger.critical("fire failed; not retrying", metadata: ["key": "\(key)", "error": "\(error)"])
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
    let nextRetry = retries.map(\.at).min()
    guard let due = [window.earliest?.due, nextRetry].compactMap({ $0 }).min() else {
      if window.refillInFlight { return }
      timer.arm(afterMillis: UInt64(configuration.maxSleepMillis))
      return
    }
    let wait = due.millis(since: clock.now())
    let millis = min(max(wait, 0), configuration.maxSleepMillis)
    timer.arm(afterMillis: UInt64(millis))
  }
}
