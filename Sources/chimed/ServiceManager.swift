import CSystemd
import ChimeCore
import Dispatch
import Glibc

/// What chimed takes from systemd and tells it, through libsystemd: the listening socket of
/// socket activation (`LISTEN_FDS`), readiness and stopping (`sd_notify`), the watchdog. With
/// no service manager every call is a no-op.
enum ServiceManager {
  /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
  private static let firstPassedDescriptor: Int32 = 3

  /// The listening socket systemd passed, or nil when chimed was not socket-activated.
  ///
  /// - Throws: UNAVAILABLE `LISTEN_FAILED` when what was passed is not exactly one listening
  ///   Unix stream socket (chimed never guesses which one to serve).
  static func inheritedListener() throws(ChimeError) -> Int32? {
    // 1: unset LISTEN_FDS and LISTEN_PID, so nothing chimed starts takes them for its own.
    let count = sd_listen_fds(1)
    guard count != 0 else { return nil }
    guard count > 0 else {
      throw ChimeError(.listenFailed, "LISTEN_FDS could not be read: \(String(cString: strerror(-count)))")
    }
    guard count == 1 else {
      throw ChimeError(.listenFailed, "systemd passed \(count) sockets; chimed serves exactly one (ListenStream= once in chimed.socket)")
    }
    let fd = firstPassedDescriptor
    guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
      throw ChimeError(.listenFailed, "the socket systemd passed is not a listening Unix stream socket (ListenStream= must name a path)")
    }
    return fd
  }

  /// Sends state lines (`READY=1`, `STATUS=...`, `STOPPING=1`, `WATCHDOG=1`) to the service
  /// manager, if there is one, in order, on a queue of their own: `sd_notify` blocks while the
  /// manager's datagram queue is full, and the loop thread must never wait on that.
  static func notify(_ state: String) {
    notifications.async { _ = sd_notify(0, state) }
  }

  private static let notifications = DispatchQueue(label: "chimed.sd-notify")

  /// Waits (at most `seconds`) until the lines queued so far are sent: called before the
  /// process exits, which would otherwise drop a `STOPPING=1` still on the queue (seen as a
  /// missing STOPPING in a loaded test run: the daemon had stopped and exited first).
  static func flush(seconds: Double = 2) {
    let sent = DispatchSemaphore(value: 0)
    notifications.async { sent.signal() }
    _ = sent.wait(timeout: .now() + seconds)
  }

  /// How often to ping the watchdog (half of `WatchdogSec=`), or nil when it is off.
  static func watchdogPingMillis() -> UInt64? {
    var usec: UInt64 = 0
    guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
    return max(usec / 2000, 1)
  }
}
