import ChimeCore

/// `RequestAuthorization` calls waiting for the user's answer to their app's "Allow
/// notifications?" prompt (policy `ask`), with one timer for their deadlines on the service's
/// clock. A wait ends when the user answers (`answer`) or at its deadline; either way the call
/// is answered with the app's record as it is then. Closed when chimed stops: every wait ends
/// at once. Loop thread only.
final class AuthorizationWaits {
  /// The longest a call waits, whatever its own deadline.
  let maxWaitMillis: Int64
  private let clock: any WallClock
  private var timer: LoopTimer?
  private var waiting: [String: [Waiter]] = [:]

  private struct Waiter {
    let deadline: Instant
    let done: () -> Void
  }

  init(clock: any WallClock, maxWaitMillis: Int64) {
    self.clock = clock
    self.maxWaitMillis = maxWaitMillis
  }

  /// Starts the deadline timer: calls may wait from now on.
  func open(loop: EventLoop) {
    timer = LoopTimer(loop: loop) { [unowned self] in expire() }
  }

  /// False once chimed is stopping (or before `open`): nothing would end a wait.
  var mayWait: Bool { timer != nil }

  /// Whether a call of `app` is waiting (its prompt is showing or being posted).
  func isWaiting(_ app: String) -> Bool { waiting[app] != nil }

  /// How long before the caller's own deadline its call is answered, so the answer reaches it
  /// before the client gives up on the call (DEADLINE_EXCEEDED) at the same instant.
  static let replyMarginMillis: Int64 = 250

  /// Waits until `app` is answered or `deadline` (less the reply margin, capped at
  /// `maxWaitMillis` from now), then runs `done`.
  func wait(app: String, deadline: Instant?, done: @escaping () -> Void) {
    let longest = clock.now().adding(millis: maxWaitMillis)
    let until = deadline.map { min($0.adding(millis: -Self.replyMarginMillis), longest) } ?? longest
    waiting[app, default: []].append(Waiter(deadline: until, done: done))
    armDeadline()
  }

  /// Ends every wait of `app` now (the user answered, or the prompt could not be shown).
  func answer(_ app: String) {
    guard let waiters = waiting.removeValue(forKey: app) else { return }
    armDeadline()
    for waiter in waiters { waiter.done() }
  }

  /// Waits past their deadline end; the timer is armed for the next one.
  func expire() {
    let now = clock.now()
    var ended: [Waiter] = []
    for (app, waiters) in waiting {
      let (late, left) = (waiters.filter { $0.deadline <= now }, waiters.filter { $0.deadline > now })
      ended += late
      waiting[app] = left.isEmpty ? nil : left
    }
    armDeadline()
    for waiter in ended { waiter.done() }
  }

  /// Every wait ends now and the timer stops. Idempotent.
  func close() {
    let all = waiting.values.flatMap { $0 }
    waiting = [:]
    timer?.close()
    timer = nil
    for waiter in all { waiter.done() }
  }

  private func armDeadline() {
    guard let earliest = waiting.values.lazy.flatMap({ $0 }).map(\.deadline).min() else {
      timer?.disarm()
      return
    }
    timer?.arm(afterMillis: UInt64(max(0, earliest.millis(since: clock.now()))))
  }
}
