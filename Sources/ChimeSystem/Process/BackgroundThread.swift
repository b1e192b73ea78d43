import CLinux
import Glibc

/// A thread of its own for a long chore that must never delay the loop or the work pool: it
/// runs under `SCHED_IDLE` (`sched(7)`), so the kernel gives it only CPU time nothing else
/// wants. On a busy machine such a chore can take long: give it a way to be stopped.
public enum BackgroundThread {
  /// Starts `body` on a new thread named `name`, at idle priority (when the kernel refuses,
  /// at normal priority).
  public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
    SystemThread.start(name: name) {
      var parameter = sched_param()
      _ = sched_setscheduler(0, Int32(CHIME_SCHED_IDLE), &parameter)
      body()
    }
  }
}
