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

  /// Kills a child that ran out of time (SIGKILL to its process group and to it) and forgets its
  /// pid, under the lock. The blocking reap that follows runs without the lock: a child in
  /// uninterruptible sleep dies only when its I/O ends, and a `stop()` from the event loop
  /// meanwhile must return at once (it signals nothing: the child is already killed, and a pid
  /// cannot be reused before its reap).
  func killForTimeout(_ pid: Int32) {
    state.withLock { state in
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      if state.pid == pid { state.pid = 0 }
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
