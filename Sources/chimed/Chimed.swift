import ArgumentParser
import ChimeBuildInfo
import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeStore
import ChimeSystem
import FoundationEssentials
import Logging

@main
struct Chimed: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "chimed",
    abstract: "The Chime notification scheduler daemon.",
    discussion: """
      Serves the NotificationCenter API on a Unix socket (only to the user it runs as), keeps \
      requests in SQLite and fires them on time. Stop it with SIGTERM or Ctrl-C: it finishes \
      the commits in flight and closes the database.

      Settings come from flags, then the environment ($CHIME_SOCKET), then the configuration \
      file, then the defaults. The file is TOML, $XDG_CONFIG_HOME/chime/chimed.toml or \
      ~/.config/chime/chimed.toml unless --config names another; its keys are the long flags' \
      names. An invalid file (syntax, unknown key, wrong type or bad value) stops chimed with \
      exit status 78 and a message naming the key and its line; started by socket activation, \
      chimed instead stays up and answers every call with FAILED_PRECONDITION CONFIG_INVALID \
      and that message, doing nothing else, until restarted (SIGHUP stops it then, and the next \
      connection starts chimed anew). `chimed --print-config` shows \
      each value and where it came from. SIGHUP re-reads the file and applies log-level; other \
      keys are applied on restart.

      Configuration keys:
      \(ConfigKey.all.map { "  \($0.name) (\($0.kind.tomlName)): \($0.summary)" }.joined(separator: "\n"))

      Example chimed.toml:
        log-level = "debug"
        missed-grace = 5
        attachment-quota = "500MB"
        presenter = "freedesktop,command"
        present-command = "/usr/local/bin/notify-hook"

      Examples:
        chimed
        chimed --print-config
        chimed --compact-store          (with chimed stopped)
        chimed --socket /tmp/chime-test/chimed.sock --data-dir /tmp/chime-test --log-level debug
      """,
    version: BuildInfo.version
  )

  @Option(help: "The configuration file (default: $XDG_CONFIG_HOME/chime/chimed.toml or ~/.config/chime/chimed.toml; a missing default file is fine). Its keys are the names of the flags below; flags win over the environment, which wins over the file.")
  var config: String?

  @Flag(help: "Print the effective configuration, with where each value came from, and exit.")
  var printConfig = false

  @Flag(help: "Rebuild the store (chime.db in the data directory) in place and exit, with chimed stopped: gives back the space of removed requests and pruned events, and gives a store made before 2 KiB pages the smaller page size (a lone add's commit then syncs half the bytes).")
  var compactStore = false

  @Option(help: "Unix socket path (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock).")
  var socket: String?

  @Option(help: "Directory for chime.db (default: $XDG_STATE_HOME/chime or ~/.local/state/chime).")
  var dataDir: String?

  @Option(help: "Directory of apps' default layouts (default: $XDG_DATA_HOME/chime/apps or ~/.local/share/chime/apps).")
  var appsDir: String?

  @Option(help: "Bytes of attachments each app may keep in the store, e.g. 100MB, 1.5GB or 5000000 (MB = 10^6 bytes; default: 100MB).")
  var attachmentQuota: String?

  @Option(help: "Pending requests each app may hold; an add of a new identifier past it is refused with PENDING_LIMIT (default: 1000000).")
  var maxPendingPerApp: String?

  @Option(help: "Connections served at once; one more is refused with TOO_MANY_CONNECTIONS (default: 4096).")
  var maxConnections: String?

  @Option(help: "Calls in flight on one connection; one more is refused with TOO_MANY_CALLS (default: 4096).")
  var maxCallsPerConnection: String?

  @Option(help: "Subscribe streams open at once, all apps together; one more is refused with TOO_MANY_SUBSCRIBERS (default: 4096).")
  var maxSubscribers: String?

  @Option(help: "Subscribe streams one app may hold open; one more is refused with TOO_MANY_SUBSCRIBERS (default: 1024).")
  var maxSubscribersPerApp: String?

  @Option(help: "The box attachment thumbnails are scaled to fit, WxH pixels (default: 300x169, Apple's thumbnail size).")
  var thumbnailBox: String?

  @Option(help: "The chime-thumbnail program that renders attachment thumbnails in a process of its own (default: the one beside chimed, else in ../libexec/chime/; when none is found thumbnails are off, with a warning).")
  var thumbnailer: String?

  /// Seconds one thumbnail render may take before the helper is killed; for tests.
  @Option(help: .hidden)
  var thumbnailTimeout: Double = 10

  @Option(help: "trace, debug, info, notice, warning, error or critical (default: info; reloads on SIGHUP).")
  var logLevel: String?

  @Option(help: "Largest frame accepted, in bytes (default: 1048576).")
  var maxFrameBytes: String?

  @Option(help: "A fire later than this many seconds after its due time is marked missed (default: 2).")
  var missedGrace: String?

  @Option(help: "Seconds a response waits for a content extension's answer before going ahead without it (default: 5).")
  var extensionTimeout: String?
  @Option(help: "Largest pushed payload accepted, in bytes (default: 4096, APNs' limit for regular pushes).")
  var pushPayloadLimit: String?
  @Option(help: "Seconds a service extension has to replace a mutable push's content before it is told time will expire (default: 30).")
  var serviceExtensionTimeout: String?
  @Option(help: "Seconds a service extension then has to send its best attempt before the original is delivered (default: 1).")
  var serviceExtensionGrace: String?
  @Option(help: "How an app's first authorization request is answered: allow (what it asks; apps that never asked may post too) or ask-denies (denied until the user runs `chime apps allow ID`; default: allow).")
  var authorization: String?

  @Option(help: "Where deliveries are shown besides the log: freedesktop, command, none, or a comma-separated list (default: freedesktop when a session bus is found, plus command when --present-command is given).")
  var presenter: String?

  @Option(help: "The program the command presenter runs for each delivery, with the notification as JSON on stdin.")
  var presentCommand: String?

  @Option(help: "Seconds the presenter command may run before it is killed (the delivery stands; default: 10).")
  var presentTimeout: String?

  @Option(help: "A program (and arguments) that plays a sound file given as its last argument, e.g. pw-play, paplay or aplay; none for silence (default: libcanberra, else the first of pw-play, paplay, aplay found).")
  var soundPlayer: String?

  @Option(help: "Stored events kept for subscribers that resume with a cursor (default: 50000).")
  var eventRetention: String?

  @Option(help: .hidden)
  var clockOffset: Double = 0

  /// Where peers' processes are read to tell sandboxed apps; tests give a fake tree.
  @Option(help: .hidden)
  var procRoot: String = "/proc"

  /// Attachment requests staged at once; for the benchmark's comparison.
  @Option(help: .hidden)
  var fileLaneWidth: Int = 2

  /// The flags given on the command line, by config key name.
  var givenFlags: [String: String] {
    let pairs: [(ConfigKey, String?)] = [
      (.socket, socket), (.dataDir, dataDir), (.appsDir, appsDir), (.attachmentQuota, attachmentQuota),
      (.maxPendingPerApp, maxPendingPerApp), (.maxConnections, maxConnections),
      (.maxCallsPerConnection, maxCallsPerConnection), (.maxSubscribers, maxSubscribers),
      (.maxSubscribersPerApp, maxSubscribersPerApp), (.thumbnailBox, thumbnailBox),
      (.thumbnailer, thumbnailer), (.logLevel, logLevel),
      (.maxFrameBytes, maxFrameBytes), (.missedGrace, missedGrace), (.extensionTimeout, extensionTimeout),
      (.pushPayloadLimit, pushPayloadLimit), (.serviceExtensionTimeout, serviceExtensionTimeout),
      (.serviceExtensionGrace, serviceExtensionGrace), (.authorization, authorization), (.presenter, presenter),
      (.presentCommand, presentCommand), (.presentTimeout, presentTimeout), (.soundPlayer, soundPlayer),
      (.eventRetention, eventRetention),
    ]
    var flags: [String: String] = [:]
    for (key, value) in pairs { if let value { flags[key.name] = value } }
    return flags
  }

  mutating func run() throws {
    // SIGHUP is taken by the reload thread (sigwait): blocked here, before any thread starts, so
    // every thread inherits the mask.
    ConfigReloader.blockHangup()
    let loader = ConfigLoader(flags: givenFlags, explicitPath: config)
    let settings: ChimedConfig
    do throws(ConfigError) {
      settings = try loader.load()
    } catch {
      StandardStreams.writeError("chimed: \(error.message)\n")
      if !printConfig && !compactStore, try InvalidConfigService.serveIfActivated(error) { return }
      throw ExitCode(ConfigLoader.invalidExitCode)
    }
    if printConfig {
      print(settings.printed(), terminator: "")
      return
    }
    if compactStore {
      let path = settings.dataDirectory + "/chime.db"
      do throws(ChimeError) {
        let report = try ChimeDatabase.compact(path: path)
        print("chimed: compacted \(path): \(report.bytesBefore) -> \(report.bytesAfter) bytes, pages of \(report.pageSizeBefore) -> \(report.pageSizeAfter) bytes")
        return
      } catch {
        StandardStreams.writeError("chimed: \(error.code) \(error.reason): \(error.message)\n")
        throw ExitCode(error.code == .unavailable ? 75 : 1)  // EX_TEMPFAIL: in use, try once chimed is stopped
      }
    }
    LogLevelSwitch.shared.set(Logger.Level(rawValue: settings.logLevel) ?? .info)
    Self.bootstrapLogging()
    var configuration = ServerConfiguration(
      socketPath: settings.socket,
      dataDirectory: settings.dataDirectory,
      logger: Logger(label: "chimed")
    )
    configuration.version = BuildInfo.version
    configuration.attachmentQuotaBytes = settings.attachmentQuotaBytes
    configuration.maxPendingPerApp = settings.maxPendingPerApp
    configuration.maxConnections = settings.maxConnections
    configuration.maxCallsPerConnection = settings.maxCallsPerConnection
    configuration.maxSubscribers = settings.maxSubscribers
    configuration.maxSubscribersPerApp = settings.maxSubscribersPerApp
    configuration.thumbnailBox = settings.thumbnailBox
    configuration.thumbnailer = settings.thumbnailer
    guard thumbnailTimeout > 0 else { throw ValidationError("--thumbnail-timeout must be more than 0") }
    configuration.thumbnailTimeoutMillis = Int(thumbnailTimeout * 1000)
    configuration.appsDirectory = settings.appsDirectory
    configuration.maxFrameBytes = settings.maxFrameBytes
    configuration.missedGraceMillis = Int64(settings.missedGraceSeconds * 1000)
    configuration.extensionAnswerTimeoutMillis = Int64(settings.extensionTimeoutSeconds * 1000)
    configuration.pushPayloadMaxBytes = settings.pushPayloadLimit
    configuration.serviceExtensionTimeoutMillis = Int64(settings.serviceExtensionTimeoutSeconds * 1000)
    configuration.serviceExtensionGraceMillis = Int64(settings.serviceExtensionGraceSeconds * 1000)
    guard fileLaneWidth > 0 else { throw ValidationError("--file-lane-width must be at least 1") }
    configuration.fileLaneWidth = fileLaneWidth
    configuration.authorizationPolicy = settings.authorization
    configuration.eventRetention = settings.eventRetention
    configuration.presentation = try presentation(settings)
    configuration.procRoot = procRoot
    configuration.dbus = Self.sessionBus(ProcessInfo.processInfo.environment)
    ConfigReloader.start(loader: loader, running: settings, logger: Logger(label: "chimed.config"))
    if clockOffset != 0 {
      configuration.clock = OffsetWallClock(offsetMillis: Int64(clockOffset * 1000))
    }
    DaemonProcess.prepareSignals()
    DaemonProcess.startDispatchRuntime()
    do throws(ChimeError) {
      // Socket activation: serve the socket systemd made (its path for the logs).
      if let fd = try ServiceManager.inheritedListener() {
        configuration.inheritedListener = fd
        configuration.socketPath = UnixSocketAddress.bound(to: fd) ?? "(inherited socket)"
      }
      configuration.onStopping = { ServiceManager.notify("STOPPING=1\nSTATUS=stopping: finishing commits in flight") }
      defer { ServiceManager.flush() }
      try DaemonProcess.makePrivateDirectory(configuration.dataDirectory)
      let daemon = try ChimeDaemon(configuration: configuration)
      try daemon.run(handleSignals: true) { path in
        // One line on stdout once listening: scripts and tests wait for it; systemd hears READY=1.
        print("chimed listening on \(path)")
        StandardStreams.flush()
        ServiceManager.notify("READY=1\n" + Watchdog.status(DaemonStats(), socketPath: path))
        Watchdog.start(daemon, everyMillis: ServiceManager.watchdogPingMillis(), socketPath: path)
      }
    } catch {
      StandardStreams.writeError("chimed: \(error.message)\n")
      throw ExitCode(1)
    }
  }

  /// Logs go straight to the journal, with fields, when stderr is the journal (systemd's
  /// unit); else to stderr, at `LogLevelSwitch.shared`'s level.
  static func bootstrapLogging() {
    if JournalLogHandler.stderrIsJournal(environment: ProcessInfo.processInfo.environment) {
      LoggingSystem.bootstrap { label in JournalLogHandler(label: label) }
    } else {
      LoggingSystem.bootstrap { label in ReloadableLogHandler(label: label) }
    }
  }

  /// The D-Bus API's bus: the session bus (`DBUS_SESSION_BUS_ADDRESS`, else the one that
  /// activated chimed, else the user's default). An address's `guid=` pins one run of the bus
  /// (dbus-daemon puts it in an activated service's environment), which a restarted bus does
  /// not keep: it is dropped, so chimed reconnects to the bus that comes back at the address.
  static func sessionBus(_ environment: [String: String]) -> DBusConfiguration {
    var address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
    if address == nil, environment["DBUS_STARTER_BUS_TYPE"] == "session" {
      address = environment["DBUS_STARTER_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
    }
    guard let address else { return DBusConfiguration() }
    let unpinned = address.split(separator: ";").map { one in
      one.split(separator: ",").filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
    }
    return DBusConfiguration(address: unpinned.joined(separator: ";"))
  }

  /// The presenters and sound from the settings (see `PresenterSelection`).
  func presentation(_ settings: ChimedConfig) throws -> PresentationConfiguration {
    var presentation = PresentationConfiguration()
    let environment = ProcessInfo.processInfo.environment
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let sessionBus = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
      || runtimeBus.map { FileManager.default.fileExists(atPath: $0) } == true
    switch PresenterSelection.choose(list: settings.presenter, command: settings.presentCommand, sessionBus: sessionBus) {
    case .success(let kinds): presentation.presenters = kinds
    case .failure(let error): throw ValidationError(error.description)
    }
    if let presentCommand = settings.presentCommand { presentation.command = [presentCommand] }
    presentation.commandTimeoutMillis = Int(settings.presentTimeoutSeconds * 1000)
    presentation.playSounds = settings.soundPlayer != "none"
    presentation.soundPlayer = settings.soundPlayer == "none" ? nil : settings.soundPlayer
    return presentation
  }
}
