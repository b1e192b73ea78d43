import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeSystem
import Logging

/// chimed with an invalid configuration file, started by socket activation (or by D-Bus
/// activation without a service manager, served on the bus alone). Exiting would leave
/// every client with a reset connection (and systemd, after a few activations, with a socket
/// in `service-start-limit-hit`), so chimed stays up on the socket it was handed and answers
/// every call with FAILED_PRECONDITION `CONFIG_INVALID`, naming the file, line and key, on the
/// socket and on the session bus (`io.github.chime.Chime1.Error.CONFIG_INVALID`). It
/// opens no store and schedules nothing. SIGTERM stops it; so does SIGHUP, after which the
/// next connection starts a chimed that reads the file again.
enum InvalidConfigService {
  /// Serves the inherited socket (and the bus) that way until stopped, when chimed was
  /// socket-activated, or the bus alone when dbus-daemon started it; false when neither
  /// (chimed then exits with `ConfigLoader.invalidExitCode`).
  static func serveIfActivated(_ error: ConfigError) throws -> Bool {
    let refusal = ChimeError(.configInvalid, "chimed's configuration is invalid: \(error.message). chimed answers nothing else until the file is fixed and chimed restarted (systemctl --user restart chimed)")
    do throws(ChimeError) {
      let fd = try ServiceManager.inheritedListener()
      let environment = ProcessEnvironment.variables
      // dbus-daemon puts DBUS_STARTER_BUS_TYPE in the environment of a service it runs itself
      // (Exec=, no systemd): then the bus is the only way in, and its caller is waiting.
      let busActivated = !(environment["DBUS_STARTER_BUS_TYPE"] ?? "").isEmpty
      guard fd != nil || busActivated else { return false }
      Chimed.bootstrapLogging()
      let logger = Logger(label: "chimed")
      let where_ = fd.map { UnixSocketAddress.bound(to: $0) ?? "(inherited socket)" } ?? "the session bus"
      var configuration = ServerConfiguration(socketPath: where_, dataDirectory: "", logger: logger)
      configuration.collaborators.inheritedListener = fd
      configuration.refuseOnBusOnly = fd == nil
      configuration.refuseEveryCall = refusal
      configuration.collaborators.dbus = Chimed.sessionBus(environment)
      configuration.collaborators.onStopping = { ServiceManager.notify("STOPPING=1\nSTATUS=stopping") }
      defer { ServiceManager.flush() }
      DaemonProcess.prepareSignals()
      let daemon = try ChimeDaemon(configuration: configuration, transports: Chimed.transports)
      ConfigReloader.onEachHangup {
        logger.notice("SIGHUP: stopping; the next connection starts chimed with the configuration file as it is now")
        daemon.shutdown()
      }
      let status = "STATUS=configuration invalid, answering every call with CONFIG_INVALID: \(error.message)"
      try daemon.run(handleSignals: true) { path in
        print("chimed refusing every call on \(path): the configuration is invalid")
        StandardStreams.flush()
        ServiceManager.notify("READY=1\n" + status)
        Watchdog.start(daemon, everyMillis: ServiceManager.watchdogPingMillis()) { _ in status }
      }
      return true
    } catch {
      StandardStreams.writeError("chimed: \(error.message)\n")
      throw ExitCode(1)
    }
  }
}
