import ChimeCore
import ChimeSystem
import Foundation
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
  /// - Throws: UNAVAILABLE `DATA_DIR_UNAVAILABLE` with the system's reason.
  static func makePrivateDirectory(_ path: String) throws(ChimeError) {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    do {
      try FileSystem.makeDirectories(absolute)
    } catch {
      throw ChimeError(.dataDirUnavailable, "cannot create \(absolute): \(error)")
    }
  }
}
