internal import CLibUV
import Glibc

/// Tells the loop when the wall clock is set (by NTP stepping it or by hand), so due times are
/// re-planned at once instead of waiting for the monotonic timer. Linux: a CLOCK_REALTIME
/// timerfd armed far in the future with TFD_TIMER_CANCEL_ON_SET becomes readable (the read
/// fails with ECANCELED) whenever the clock is set discontinuously. Loop thread only.
final class WallClockWatcher {
  private let fd: Int32
  private let poll: UnsafeMutablePointer<uv_poll_t>
  private let action: () -> Void
  private var isClosed = false

  /// nil when the kernel offers no timerfd (the scheduler's bounded sleep still catches jumps).
  init?(loop: EventLoop, action: @escaping () -> Void) {
    let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
    guard fd >= 0 else { return nil }
    self.fd = fd
    self.action = action
    poll = .allocate(capacity: 1)
    guard uv_poll_init(loop.raw, poll, fd) == 0 else {
      Glibc.close(fd)
      poll.deallocate()
      return nil
    }
    poll.pointee.data = Unmanaged.passRetained(self).toOpaque()
    guard arm() else {
      close()
      return nil
    }
    uv_poll_start(poll, Int32(UV_READABLE.rawValue), wallClockPollCallback())
  }

  private func arm() -> Bool {
    var spec = itimerspec()
    spec.it_value.tv_sec = Int(Int32.max)  // 2038: far enough; re-armed after every change
    return timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0
  }

  fileprivate func readable() {
    var expirations: UInt64 = 0
    let n = Glibc.read(fd, &expirations, MemoryLayout<UInt64>.size)
    if n < 0 && errno == ECANCELED {
      _ = arm()
      action()
    } else if n < 0 && errno != EAGAIN {
      _ = arm()
    }
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    uv_poll_stop(poll)
    UnsafeMutableRawPointer(poll).withMemoryRebound(to: uv_handle_t.self, capacity: 1) {
      uv_close($0, wallClockCloseCallback())
    }
  }

  fileprivate func finishClose() {
    Glibc.close(fd)
    poll.deallocate()
  }
}

private func wallClockPollCallback() -> uv_poll_cb {
  return { handle, _, _ in
    guard let data = handle?.pointee.data else { return }
    Unmanaged<WallClockWatcher>.fromOpaque(data).takeUnretainedValue().readable()
  }
}

private func wallClockCloseCallback() -> uv_close_cb {
  return { handle in
    guard let data = handle?.pointee.data else { return }
    Unmanaged<WallClockWatcher>.fromOpaque(data).takeRetainedValue().finishClose()
  }
}
