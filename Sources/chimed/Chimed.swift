import ChimeBuildInfo
import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeStore
import ChimeSystem
import Logging

/// Ends chimed with this exit status (after what went wrong was written to stderr).
struct ExitCode: Error {
  let rawValue: Int32
  init(_ rawValue: Int32) { self.rawValue = rawValue }
}

/// chimed's entry: the command line (`ChimedCommandLine`: help, version, usage errors with
/// exit status 64), then one run with its options.
@main
struct Chimed {
  let arguments: ChimedArguments

  static func main() {
    let command: ChimedCommand
    do throws(UsageError) {
      command = try ChimedCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      StandardStreams.writeError(error.text)
      StandardStreams.exit(UsageError.exitStatus)
    }
    switch command {
    case .help:
      print(ChimedCommandLine.help, terminator: "")
    case .version:
      print(BuildInfo.version)
    case .run(let arguments):
      do {
        try Chimed(arguments: arguments).run()
      } catch let exit as ExitCode {
        StandardStreams.exit(exit.rawValue)
      } catch let error as UsageError {
        StandardStreams.writeError(error.text)
        StandardStreams.exit(UsageError.exitStatus)
      } catch {
        StandardStreams.writeError("Error: \(error)\n")
        StandardStreams.exit(1)
      }
    }
    StandardStreams.exit(0)
  }

  func run() throws {
    // SIGHUP is taken by the reload thread (sigwait): blocked here, before any thread starts, so
    // every thread inherits the mask.
    ConfigReloader.blockHangup()
    let loader = ConfigLoader(flags: arguments.settings, explicitPath: arguments.configPath)
    let settings: ChimedConfig
    do throws(ConfigError) {
      settings = try loader.load()
    } catch {
      StandardStreams.writeError("chimed: \(error.message)\n")
      if !arguments.printConfig && !arguments.compactStore, try InvalidConfigService.serveIfActivated(error) { return }
      throw ExitCode(ConfigLoader.invalidExitCode)
    }
    if arguments.printConfig {
      print(settings.printed(), terminator: "")
      return
    }
    if arguments.compactStore {
      let path = settings.settings.paths.dataDirectory + "/chime.db"
      do throws(ChimeError) {
        let report = try ChimeDatabase.compact(path: path)
        print("chimed: compacted \(path): \(report.bytesBefore) -> \(report.bytesAfter) bytes, pages of \(report.pageSizeBefore) -> \(report.pageSizeAfter) bytes")
        return
      } catch {
        StandardStreams.writeError("chimed: \(error.code) \(error.reason): \(error.message)\n")
        throw ExitCode(error.code == .unavailable ? 75 : 1)  // EX_TEMPFAIL: in use, try once chimed is stopped
      }
    }
    let server = settings.settings
    LogLevelSwitch.shared.set(Logger.Level(rawValue: server.logLevel) ?? .info)
    Self.bootstrapLogging()
    var configuration = ServerConfiguration(paths: server.paths, logger: Logger(label: "chimed"))
    configuration.limits = server.limits
    configuration.policy = server.policy
    configuration.version = BuildInfo.version
    configuration.collaborators.presentation = try presentation(server.presentation)
    configuration.collaborators.dbus = Self.sessionBus(ProcessEnvironment.variables)
    // The hidden flags, for tests and the benchmark.
    guard arguments.thumbnailTimeout > 0 else { throw UsageError("--thumbnail-timeout must be more than 0") }
    configuration.limits.thumbnailTimeoutMillis = Int(arguments.thumbnailTimeout * 1000)
    guard arguments.fileLaneWidth > 0 else { throw UsageError("--file-lane-width must be at least 1") }
    configuration.limits.fileLaneWidth = arguments.fileLaneWidth
    configuration.hooks.procRoot = arguments.procRoot
    if arguments.clockOffset != 0 {
      configuration.hooks.clock = OffsetWallClock(offsetMillis: Int64(arguments.clockOffset * 1000))
    }
    ConfigReloader.start(loader: loader, running: settings, logger: Logger(label: "chimed.config"))
    DaemonProcess.prepareSignals()
    DaemonProcess.startDispatchRuntime()
    do throws(ChimeError) {
      // Socket activation: serve the socket systemd made (its path for the logs).
      if let fd = try ServiceManager.inheritedListener() {
        configuration.collaborators.inheritedListener = fd
        configuration.paths.socketPath = UnixSocketAddress.bound(to: fd) ?? "(inherited socket)"
      }
      configuration.collaborators.onStopping = { ServiceManager.notify("STOPPING=1\nSTATUS=stopping: finishing commits in flight") }
      defer { ServiceManager.flush() }
      try DaemonProcess.makePrivateDirectory(configuration.paths.dataDirectory)
      let daemon = try ChimeDaemon(configuration: configuration, transports: Self.transports)
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
    if JournalLogHandler.stderrIsJournal(environment: ProcessEnvironment.variables) {
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
  func presentation(_ settings: PresentationSettings) throws -> PresentationConfiguration {
    var presentation = PresentationConfiguration()
    let environment = ProcessEnvironment.variables
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let sessionBus = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
      || runtimeBus.map { FileSystem.status($0) != nil } == true
    switch PresenterSelection.choose(list: settings.presenter, command: settings.command, sessionBus: sessionBus) {
    case .success(let kinds): presentation.presenters = kinds
    case .failure(let error): throw UsageError(error.description)
    }
    if let command = settings.command { presentation.command = [command] }
    presentation.commandTimeoutMillis = Int(settings.commandTimeoutMillis)
    presentation.playSounds = settings.soundPlayer != "none"
    presentation.soundPlayer = settings.soundPlayer == "none" ? nil : settings.soundPlayer
    return presentation
  }
}
