import ChimeCore
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

  /// Creates `path` (relative to the working directory unless absolute) and its missing
  /// parents with mode 0700.
  ///
  /// - Throws: UNAVAILABLE `DATA_DIR_UNAVAILABLE` naming the directory that could not be made.
  static func makePrivateDirectory(_ path: String) throws(ChimeError) {
    var absolute = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else {
        throw ChimeError(.dataDirUnavailable, "cannot resolve \(path): \(String(cString: strerror(errno)))")
      }
      absolute = String(cString: cwd) + "/" + path
      free(cwd)
    }
    var partial = ""
    for component in absolute.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o700) != 0 && errno != EEXIST {
        throw ChimeError(.dataDirUnavailable, "cannot create \(partial): \(String(cString: strerror(errno)))")
      }
    }
  }
}
