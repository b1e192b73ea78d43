import Foundation

/// One thread per process that ends calls at their deadlines. Not the dispatch queues: a
/// client inside an app whose threads are all busy (or blocked) must still time out, and a
/// deadline must not wait for a worker to come free. The thread sleeps until the earliest
/// deadline and is woken only when a call arrives with an earlier one, so calls that share a
/// timeout cost it nothing.
final class DeadlineTimer: @unchecked Sendable {
  static let shared = DeadlineTimer()

  private struct Entry {
    let at: ContinuousClock.Instant
    let fire: @Sendable () -> Void
  }

  private let condition = NSCondition()
  private var entries: [UInt64: Entry] = [:]
  private var nextToken: UInt64 = 1
  private var started = false
  /// What the thread sleeps until (nil: no deadline, or not sleeping).
  private var sleepingUntil: ContinuousClock.Instant?

  /// Calls `fire` on the timer thread `millis` from now, unless `cancel`led first. `fire` must
  /// be quick (it completes a call).
  func schedule(afterMillis millis: Int64, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
    let at = ContinuousClock.now + .milliseconds(millis)
    condition.lock()
    defer { condition.unlock() }
    if !started {
      started = true
      let thread = Thread { [self] in run() }
      thread.name = "chime-deadlines"
      thread.start()
    }
    let token = nextToken
    nextToken += 1
    entries[token] = Entry(at: at, fire: fire)
    if sleepingUntil.map({ at < $0 }) ?? true { condition.signal() }
    return token
  }

  func cancel(_ token: UInt64) {
    condition.lock()
    entries[token] = nil
    condition.unlock()
  }

  private func run() {
    condition.lock()
    while true {
      let now = ContinuousClock.now
      let due = entries.filter { $0.value.at <= now }
      if !due.isEmpty {
        for token in due.keys { entries[token] = nil }
        sleepingUntil = nil
        condition.unlock()
        for entry in due.values { entry.fire() }
        condition.lock()
        continue
      }
      if let earliest = entries.values.lazy.map(\.at).min() {
        sleepingUntil = earliest
        let wait = now.duration(to: earliest).components
        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(wait.seconds) + Double(wait.attoseconds) / 1e18))
      } else {
        sleepingUntil = .now + .seconds(86_400 * 365)
        condition.wait()
      }
      sleepingUntil = nil
    }
  }
}
