import ChimeServer
import ChimeSystem
import Glibc

/// Pings systemd's watchdog (when `WatchdogSec=` is set) while the daemon's loop answers: each
/// ping follows a round trip through the loop (`stats()`), so a loop that hangs stops the pings
/// and systemd restarts chimed. The same round trip refreshes the `STATUS=` line.
enum Watchdog {
  static func start(_ daemon: ChimeDaemon, everyMillis millis: UInt64?, socketPath: String) {
    start(daemon, everyMillis: millis) { stats in Self.status(stats, socketPath: socketPath) }
  }

  /// Pings with the `STATUS=` line `status` makes of each round trip's counters.
  static func start(_ daemon: ChimeDaemon, everyMillis millis: UInt64?, status: @escaping @Sendable (DaemonStats) -> String) {
    guard let millis else { return }
    SystemThread.start(name: "chimed-watchdog") {
      while true {
        usleep(useconds_t(min(millis * 1000, UInt64(UInt32.max))))
        let stats = daemon.stats()
        if daemon.isStopped { return }
        ServiceManager.notify(status(stats) + "\nWATCHDOG=1")
      }
    }
  }

  static func status(_ stats: DaemonStats, socketPath: String) -> String {
    "STATUS=serving on \(socketPath): \(stats.connections) connections, \(stats.subscribers) subscribers, \(stats.scheduleWindowKeys) due times in memory"
  }
}
