import Glibc

/// A handle on one child that `Subprocess.capture` runs, for another thread to stop it: the
/// pid is known only while the child is unreaped (reaping and stopping take the same lock, so
/// a stop never signals a pid the system may already have given to another process). A stop
/// before the start kills the child as soon as it exists.
public final class ProcessSlot: Sendable {
  private struct State {
    var pid: Int32 = 0
    var stopped = false
  }

  private let state = Locked(State())

  public init() {}

  /// True once `stop()` was called.
  public var isStopped: Bool { state.withLock { $0.stopped } }

  /// Sends SIGTERM to the child's process group and the child (players end their stream on it);
  /// the capture that runs it then reaps it. Any thread; idempotent.
  public func stop() {
    state.withLock { state in
      state.stopped = true
      guard state.pid > 0 else { return }
      kill(-state.pid, SIGTERM)
      kill(state.pid, SIGTERM)
    }
  }

  /// The child started as `pid`; it is killed at once when a stop came first.
  func started(_ pid: Int32) {
    state.withLock { state in
      state.pid = pid
      if state.stopped {
        kill(-pid, SIGTERM)
        kill(pid, SIGTERM)
      }
    }
  }

  /// Runs `waitpid` (`reap`) under the lock; a reaped child's pid is forgotten before the lock
  /// is released.
  func reaping(_ pid: Int32, _ reap: () -> Int32) -> Int32 {
    state.withLock { state in
      let reaped = reap()
      if reaped == pid { state.pid = 0 }
      return reaped
    }
  }
}
