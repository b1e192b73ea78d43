import ChimeCore

/// The live extensions (`ExtensionHub`) and the one timer for their answers' deadlines on the
/// service's clock: a response or a pushed notification waiting for an extension goes ahead
/// when its deadline passes. Closed when chimed stops: nothing waits any more. Loop thread only.
final class ExtensionWaits {
  let hub = ExtensionHub()
  /// How long a content extension has to answer a response.
  let answerTimeoutMillis: Int64
  private let clock: any WallClock
  private var timer: LoopTimer?

  init(clock: any WallClock, answerTimeoutMillis: Int64) {
    self.clock = clock
    self.answerTimeoutMillis = answerTimeoutMillis
  }

  /// Starts the deadline timer: extensions may be waited for from now on.
  func open(loop: EventLoop) {
    timer = LoopTimer(loop: loop) { [unowned self] in expire() }
  }

  /// False once chimed is stopping (or before `open`): nothing would end a wait, so none starts.
  var mayWait: Bool { timer != nil }

  /// Everything waiting goes ahead now and the timer stops. Idempotent.
  func close() {
    hub.resolveAll()
    timer?.close()
    timer = nil
  }

  /// Arms the timer for the earliest deadline (or disarms it when none waits).
  func armDeadline() {
    guard let deadline = hub.earliestDeadline else {
      timer?.disarm()
      return
    }
    timer?.arm(afterMillis: UInt64(max(0, deadline.millis(since: clock.now()))))
  }

  /// Waits past their deadline go ahead; the timer is armed for the next one.
  func expire() {
    hub.expire(now: clock.now())
    armDeadline()
  }
}
