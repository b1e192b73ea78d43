import ChimeCore
import ChimeStore
import Logging

/// Drives the `SchedulerMachine`: owns the one timer (a timerfd, see `PreciseTimer`), reads the store's index to refill
/// the window, and fires due keys (prepared on the work pool by `FirePreparation`, committed
/// through the group-commit writer). Every decision is the machine's; this only carries out
/// its actions and feeds it what happened. Loop thread only.
///
/// A fire is one store transaction (delivered row + pending advanced or removed); events follow
/// the commit. Due times are wall-clock instants while the timer runs on the monotonic clock,
/// so the timer never sleeps longer than `maxSleepMillis` before looking at the wall clock
/// again, and `clockChanged()` re-arms at once when the clock is known to have moved.
final class Scheduler {
  typealias Configuration = SchedulerMachine.Configuration

  private let loop: EventLoop
  private let database: ChimeDatabase
  private let writer: GroupCommitWriter
  private let clock: any WallClock
  private let preparation: FirePreparation
  private let logger: Logger
  /// Set once the service that holds this scheduler exists: the zone, stamps, fired events.
  weak var host: (any SchedulerHost)?
  private var machine: SchedulerMachine
  private var timer: (any OneTimer)?
  /// Due batches waiting to be prepared: one is prepared at a time, so fires reach the writer
  /// (and subscribers) in due order even when preparing one batch takes longer than the next.
  private var batches: [(keys: [ScheduleKey], wokeMicros: Int64)] = []
  private var preparing = false
  /// When the timer last woke (microseconds since the epoch), for each fire's lateness.
  private var wokeMicros: Int64 = 0
  /// What the timer is armed for, until it fires or the clock moves: re-arming for the same
  /// due instant (or the maximum sleep again) changes nothing, and most adds asked for that
  /// (a timerfd_settime per add).
  private var armed: ArmedFor?
  private enum ArmedFor: Equatable {
    case due(Instant)
    case maxSleep
  }

  init(loop: EventLoop, database: ChimeDatabase, writer: GroupCommitWriter, clock: any WallClock,
       configuration: Configuration, preparation: FirePreparation, logger: Logger) {
    self.loop = loop
    self.database = database
    self.writer = writer
    self.clock = clock
    self.preparation = preparation
    self.logger = logger
    machine = SchedulerMachine(configuration: configuration)
  }

  func start() {
    let onTick = { [unowned self] in
      armed = nil
      wokeMicros = clock.nowMicros()
      perform(machine.tick(now: clock.now()))
    }
    timer = PreciseTimer(loop: loop, action: onTick) ?? LoopTimer(loop: loop, action: onTick)
    perform(machine.start(now: clock.now()))
  }

  func stop() {
    machine.stop()
    timer?.close()
    timer = nil
  }

  /// A fire later than this after its due instant is missed (and follows the request's policy).
  var missedGraceMillis: Int64 { preparation.missedGraceMillis }

  /// Keys currently held in memory (bounded by about twice the window capacity).
  var windowCount: Int { machine.window.count }

  /// A request was committed with this schedule key.
  func scheduled(_ key: ScheduleKey) {
    perform(machine.scheduled(key, now: clock.now()))
  }

  /// Holds back the due keys of apps whose id starts with `prefix` until `release()`.
  func hold(appsWithPrefix prefix: String) {
    machine.hold(appsWithPrefix: prefix)
  }

  /// Ends `hold`: what it held back fires now.
  func release() {
    guard machine.holding != nil else { return }
    armed = nil
    perform(machine.release(now: clock.now()))
  }

  /// The wall clock or the time zone changed: look again now.
  func clockChanged() {
    armed = nil
    perform(machine.clockChanged(now: clock.now()))
  }

  private func perform(_ actions: [SchedulerMachine.Action]) {
    for action in actions {
      switch action {
      case .arm(let millis):
        // The maximum sleep only bounds how long the wall clock goes unchecked: an earlier
        // wake than the latest arm asked for is harmless (it arms again).
        let target: ArmedFor = millis < machine.configuration.maxSleepMillis ? machine.nextWake.map(ArmedFor.due) ?? .maxSleep : .maxSleep
        guard target != armed else { continue }
        armed = target
        timer?.arm(afterMicros: waitMicros(armedMillis: millis))
      case .fire(let keys):
        fire(keys)
      case .refill(let after, let limit):
        refill(after: after, limit: limit)
      }
    }
  }

  /// The machine's wait made exact: to the microsecond of the earliest due instant, unless the
  /// machine chose its maximum sleep.
  private func waitMicros(armedMillis millis: Int64) -> Int64 {
    guard millis < machine.configuration.maxSleepMillis, let due = machine.nextWake else { return millis * 1000 }
    return min(max(due.unixMillis * 1000 - clock.nowMicros(), 0), machine.configuration.maxSleepMillis * 1000)
  }

  private func fire(_ keys: [ScheduleKey]) {
    batches.append((keys, wokeMicros))
    prepareNextBatch()
  }

  private func prepareNextBatch() {
    guard !preparing, !batches.isEmpty, let host else { return }
    preparing = true
    let (keys, woke) = batches.removeFirst()
    let preparation = self.preparation, now = clock.now(), zone = host.floatingZone
    loop.runBlocking({ preparation.prepare(keys, now: now, zone: zone, wokeMicros: woke) }, then: { [self] prepared in
      preparing = false
      defer { prepareNextBatch() }
      for (key, item) in zip(keys, prepared) {
        switch item {
        case .stale:
          finished(key, .stale)
        case .failed(let error):
          failed(key, error)
        case .ready(let mutation):
          writer.submit(host.stamped(mutation)) { [self] result in
            switch result {
            case .success(let outcome):
              if case .fired(_, _, let next, _) = outcome {
                self.host?.fired(key, outcome)
                finished(key, .fired(next: next))
              } else {
                finished(key, .stale)
              }
            case .failure(let error):
              failed(key, error)
            }
          }
        }
      }
    })
  }

  private func failed(_ key: ScheduleKey, _ error: ChimeError) {
    if error.code == .unavailable || error.code == .resourceExhausted {
      // The row is unchanged in the store: try again a little later, not in a hot loop.
      logger.error("fire failed; will retry", metadata: ["key": "\(key)", "error": "\(error)"])
      finished(key, .failedTransiently)
    } else {
      // Not transient (an unreadable row): retrying cannot help. The row stays pending in the
      // store and is tried again after a restart.
      logger.critical("fire failed; not retrying", metadata: ["key": "\(key)", "error": "\(error)"])
      finished(key, .failedPermanently)
    }
  }

  private func finished(_ key: ScheduleKey, _ result: SchedulerMachine.FireResult) {
    perform(machine.fireFinished(key, result, now: clock.now()))
  }

  private func refill(after: ScheduleKey?, limit: Int) {
    let database = self.database
    loop.runBlocking(catching: { () throws(ChimeError) in try database.soonest(after: after, limit: limit) }, then: { [self] result in
      switch result {
      case .success(let keys):
        perform(machine.refillFinished(keys, now: clock.now()))
      case .failure(let error):
        logger.error("schedule refill failed", metadata: ["error": "\(error)"])
        perform(machine.refillFailed(now: clock.now()))
      }
    })
  }
}
