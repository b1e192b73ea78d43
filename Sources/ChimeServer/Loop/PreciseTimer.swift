internal import CLibUV
import Glibc

/// What the scheduler arms: one timer, re-armed for the next wait.
protocol OneTimer: AnyObject {
  /// Fires once after `micros` (0: at the loop's next turn), replacing any earlier arm.
  func arm(afterMicros micros: Int64)
  func close()
}

/// A one-shot timer with microsecond resolution: a CLOCK_MONOTONIC timerfd watched by the loop.
/// libuv's timers count whole milliseconds from the loop's cached time, which put a fire up to a
/// millisecond (p50 0.5 ms) after its due instant; a timerfd wakes the loop within tens of
/// microseconds of it. Loop thread only; `close()` before dropping it.
final class PreciseTimer: OneTimer {
  private let fd: Int32
  private var poll: LoopPoll?
  private let action: () -> Void

  /// nil when the kernel gives no timerfd (the caller falls back to a libuv timer).
  init?(loop: EventLoop, action: @escaping () -> Void) {
    let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
    guard fd >= 0 else { return nil }
    self.fd = fd
    self.action = action
    var expirations: UInt64 = 0
    guard let poll = try? LoopPoll(loop: loop, fd: fd, action: { [unowned self] _ in
      // Consume the expiration count (EAGAIN when a re-arm already cleared it: not a fire).
      guard Glibc.read(fd, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return }
      self.action()
    }) else {
      Glibc.close(fd)
      return nil
    }
    self.poll = poll
    poll.watch(.readable)
  }

  func arm(afterMicros micros: Int64) {
    guard poll != nil else { return }
    var spec = itimerspec()
    // An all-zero it_value disarms: "now" is one nanosecond.
    let wait = max(micros, 0)
    spec.it_value.tv_sec = Int(wait / 1_000_000)
    spec.it_value.tv_nsec = wait == 0 ? 1 : Int(wait % 1_000_000) * 1000
    timerfd_settime(fd, 0, &spec, nil)
  }

  func close() {
    guard let poll else { return }
    poll.close()
    self.poll = nil
    Glibc.close(fd)
  }
}

extension LoopTimer: OneTimer {
  /// Rounded up to whole milliseconds: never early.
  func arm(afterMicros micros: Int64) {
    arm(afterMillis: UInt64((max(micros, 0) + 999) / 1000))
  }
}
