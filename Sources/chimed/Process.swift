import ChimeCore
import ChimeSystem
import Dispatch
import Glibc

/// What the chimed process sets up before a daemon runs in it.
enum DaemonProcess {
  /// libuv writes to sockets with write(2): a peer that hung up must be an EPIPE on that
  /// connection, not a signal that kills the daemon. A parent may have started us with SIGTERM
  /// and SIGINT blocked (Foundation's Process passes its thread's mask on): unblock them, or
  /// they would never reach the loop.
  static func prepareSignals() {
    signal(SIGPIPE, SIG_IGN)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }

  /// Starts libdispatch's worker pool and its event manager now. The first block a dispatch
  /// queue runs (the service manager's notifications, `ServiceManager.notify`) starts a worker
  /// thread and, with it, a manager holding an epoll, an eventfd and a timerfd for the rest of
  /// the process. Left lazy, that happens at some point after start, and chimed's descriptor
  /// count steps up by three while it serves: indistinguishable from a leak to anyone watching
  /// `/proc/PID/fd` (the soak test does). Paid at start, the count is flat from the first call.
  static func startDispatchRuntime() {
    let started = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { started.signal() }
    started.wait()
  }

  /// Creates `path` (relative to the working directory unless absolute) and its missing
  /// parents with mode 0700.
  ///
  /// - Throws: UNAVAILABLE `DATA_DIR_UNAVAILABLE` with the system's reason.
  static func makePrivateDirectory(_ path: String) throws(ChimeError) {
    let absolute = FileSystem.absolute(path)
    do {
      try FileSystem.makeDirectories(absolute)
    } catch {
      throw ChimeError(.dataDirUnavailable, "cannot create \(absolute): \(error)")
    }
  }
}
