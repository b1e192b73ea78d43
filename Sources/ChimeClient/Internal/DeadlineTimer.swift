import ChimeCore
import ChimeSystem
import Dispatch

/// One thread per process that ends calls at their deadlines. Not the dispatch queues: a
/// client inside an app whose threads are all busy (or blocked) must still time out, and a
/// deadline must not wait for a worker to come free. The thread sleeps until the earliest
/// deadline and is woken only when a call arrives with an earlier one, so calls that share a
/// timeout cost it nothing. (A semaphore wakes it, not a condition variable: a wake-up given
/// between its reading the deadlines and its going to sleep is kept, not lost.)
final class DeadlineTimer: Sendable {
  static let shared = DeadlineTimer()

  private struct Entry {
    let at: ContinuousClock.Instant
    let fire: @Sendable () -> Void
  }

  private struct State {
    var entries: [UInt64: Entry] = [:]
    var nextToken: UInt64 = 1
    var started = false
    /// What the thread sleeps until (nil: not sleeping).
    var sleepingUntil: ContinuousClock.Instant?
  }

  // `Locked` (a pthread mutex), not `Mutex`: ThreadSanitizer sees it.
  private let state = Locked(State())
  private let wake = DispatchSemaphore(value: 0)

  /// Calls `fire` on the timer thread `millis` from now, unless `cancel`led first. `fire` must
  /// be quick (it completes a call).
  func schedule(afterMillis millis: Int64, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
    let at = ContinuousClock.now + .milliseconds(millis)
    let (token, start, signal) = state.withLock { state in
      let token = state.nextToken
      state.nextToken += 1
      state.entries[token] = Entry(at: at, fire: fire)
      defer { state.started = true }
      return (token, !state.started, state.sleepingUntil.map { at < $0 } ?? true)
    }
    if start { SystemThread.start(name: "chime-deadlines") { [self] in run() } }
    if signal { wake.signal() }
    return token
  }

  func cancel(_ token: UInt64) {
    state.withLock { _ = $0.entries.removeValue(forKey: token) }
  }

  private func run() {
    while true {
      let now = ContinuousClock.now
      let (due, earliest) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
        let due = state.entries.filter { $0.value.at <= now }
        guard due.isEmpty else {
          for token in due.keys { state.entries[token] = nil }
          state.sleepingUntil = nil
          return (Array(due.values), nil)
        }
        let earliest = state.entries.values.lazy.map(\.at).min()
        state.sleepingUntil = earliest ?? .now + .seconds(86_400 * 365)
        return ([], earliest)
      }
      if !due.isEmpty {
        for entry in due { entry.fire() }
        continue
      }
      if let earliest {
        let wait = now.duration(to: earliest).components
        let nanos = wait.seconds >= Int64.max / 1_000_000_000 - 1 ? Int.max : Int(wait.seconds) * 1_000_000_000 + Int(wait.attoseconds / 1_000_000_000)
        _ = wake.wait(timeout: .now() + .nanoseconds(nanos))
      } else {
        wake.wait()
      }
      state.withLock { $0.sleepingUntil = nil }
    }
  }
}
