import ChimeSystem

/// Gives memory back once the daemon goes quiet: a second after calls stop, `release` (the
/// store's idle readers' caches) and then `malloc_trim` run on the work pool. While calls keep coming it looks once a second and does nothing; when idle
/// it has no timer armed at all (no wake-ups). Loop thread only.
final class IdleTrim {
  private let quietMillis: UInt64
  private let loop: EventLoop
  private let release: @Sendable () -> Void
  private var timer: LoopTimer?
  private var activity = 0
  private var seen = 0
  private var armed = false
  /// Trims run, for tests and stats.
  private(set) var trims = 0

  init(loop: EventLoop, quietMillis: UInt64, release: @escaping @Sendable () -> Void = {}) {
    self.loop = loop
    self.quietMillis = quietMillis
    self.release = release
    timer = LoopTimer(loop: loop) { [unowned self] in check() }
  }

  /// A call started.
  func noteActivity() {
    activity &+= 1
    guard !armed else { return }
    armed = true
    seen = activity
    timer?.arm(afterMillis: quietMillis)
  }

  private func check() {
    guard activity == seen else {
      seen = activity
      timer?.arm(afterMillis: quietMillis)
      return
    }
    armed = false
    trims += 1
    let release = self.release
    loop.runBlocking({
      release()
      HeapTrim.now()
    }, then: { _ in })
  }

  func close() {
    timer?.close()
    timer = nil
  }
}
