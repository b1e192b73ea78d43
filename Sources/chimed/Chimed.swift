import ArgumentParser
import ChimeCore
import ChimeServer
import ChimeSystem
import Foundation
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

      Examples:
        chimed
        chimed --socket /tmp/chime-test/chimed.sock --data-dir /tmp/chime-test --log-level debug
      """,
    version: ChimeVersion.string
  )

  @Option(help: "Unix socket path (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock).")
  var socket: String?

  @Option(help: "Directory for chime.db (default: $XDG_STATE_HOME/chime or ~/.local/state/chime).")
  var dataDir: String?

  @Option(help: "Directory of apps' default layouts (default: $XDG_DATA_HOME/chime/apps or ~/.local/share/chime/apps).")
  var appsDir: String?

  @Option(help: "Bytes of attachments each app may keep in the store, e.g. 100MB, 1.5GB or 5000000 (MB = 10^6 bytes).")
  var attachmentQuota: String = "100MB"

  @Option(help: "Pending requests each app may hold; an add of a new identifier past it is refused with PENDING_LIMIT.")
  var maxPendingPerApp: Int = Limits.pendingPerAppDefault

  @Option(help: "The box attachment thumbnails are scaled to fit, WxH pixels (default: 300x169, Apple's thumbnail size).")
  var thumbnailBox: String = ThumbnailBox.default.description

  @Option(help: "trace, debug, info, notice, warning, error or critical.")
  var logLevel: String = "info"

  @Option(help: "Largest frame accepted, in bytes.")
  var maxFrameBytes: Int = Limits.maxFrameBytesDefault

  @Option(help: "A fire later than this many seconds after its due time is marked missed.")
  var missedGrace: Double = 2

  @Option(help: "Seconds a response waits for a content extension's answer before going ahead without it.")
  var extensionTimeout: Double = 5
  @Option(help: "Largest pushed payload accepted, in bytes (APNs' limit for regular pushes is 4096).")
  var pushPayloadLimit: Int = 4096
  @Option(help: "Seconds a service extension has to replace a mutable push's content before it is told time will expire.")
  var serviceExtensionTimeout: Double = 30
  @Option(help: "Seconds a service extension then has to send its best attempt before the original is delivered.")
  var serviceExtensionGrace: Double = 1
  @Option(help: "How an app's first authorization request is answered: allow (what it asks; apps that never asked may post too) or ask-denies (denied until the user runs `chime apps allow ID`).")
  var authorization: String = AuthorizationPolicy.allow.rawValue

  @Option(help: "Where deliveries are shown besides the log: freedesktop, command, none, or a comma-separated list (default: freedesktop when a session bus is found, plus command when --present-command is given).")
  var presenter: String?

  @Option(help: "The program the command presenter runs for each delivery, with the notification as JSON on stdin.")
  var presentCommand: String?

  @Option(help: "Seconds the presenter command may run before it is killed (the delivery stands).")
  var presentTimeout: Double = 10

  @Option(help: "A program (and arguments) that plays a sound file given as its last argument, e.g. pw-play, paplay or aplay; none for silence (default: libcanberra, else the first of pw-play, paplay, aplay found).")
  var soundPlayer: String?

  @Option(help: .hidden)
  var clockOffset: Double = 0

  /// Attachment requests staged at once; for the benchmark's comparison.
  @Option(help: .hidden)
  var fileLaneWidth: Int = 2

  mutating func run() throws {
    guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
      throw ValidationError("unknown log level \"\(logLevel)\"")
    }
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    var configuration = ServerConfiguration(
      socketPath: SocketPath.resolve(socket),
      dataDirectory: DataDirectory.resolve(dataDir),
      logger: Logger(label: "chimed")
    )
    guard let quota = Self.bytes(attachmentQuota), quota >= 0 else {
      throw ValidationError("--attachment-quota: \"\(attachmentQuota)\" is not a size such as 100MB or 5000000")
    }
    configuration.attachmentQuotaBytes = quota
    guard maxPendingPerApp > 0 else { throw ValidationError("--max-pending-per-app must be at least 1") }
    configuration.maxPendingPerApp = maxPendingPerApp
    do throws(ChimeError) {
      configuration.thumbnailBox = try ThumbnailBox(parsing: thumbnailBox)
    } catch {
      throw ValidationError("--thumbnail-box: \(error.message)")
    }
    configuration.appsDirectory = AppsDirectory.resolve(appsDir)
    configuration.maxFrameBytes = maxFrameBytes
    configuration.missedGraceMillis = Int64(missedGrace * 1000)
    configuration.extensionAnswerTimeoutMillis = Int64(max(0, extensionTimeout) * 1000)
    configuration.pushPayloadMaxBytes = max(0, pushPayloadLimit)
    configuration.serviceExtensionTimeoutMillis = Int64(max(0, serviceExtensionTimeout) * 1000)
    configuration.serviceExtensionGraceMillis = Int64(max(0, serviceExtensionGrace) * 1000)
    guard fileLaneWidth > 0 else { throw ValidationError("--file-lane-width must be at least 1") }
    configuration.fileLaneWidth = fileLaneWidth
    guard let policy = AuthorizationPolicy(rawValue: authorization) else {
      throw ValidationError("--authorization: \"\(authorization)\" is not allow or ask-denies")
    }
    configuration.authorizationPolicy = policy
    configuration.presentation = try presentation()
    if clockOffset != 0 {
      configuration.clock = OffsetWallClock(offsetMillis: Int64(clockOffset * 1000))
    }
    DaemonProcess.prepareSignals()
    do throws(ChimeError) {
      // Socket activation: serve the socket systemd made (its path for the logs).
      if let fd = try ServiceManager.inheritedListener() {
        configuration.inheritedListener = fd
        configuration.socketPath = UnixSocketAddress.bound(to: fd) ?? "(inherited socket)"
      }
      configuration.onStopping = { ServiceManager.notify("STOPPING=1\nSTATUS=stopping: finishing commits in flight") }
      try DaemonProcess.makePrivateDirectory(configuration.dataDirectory)
      let daemon = try ChimeDaemon(configuration: configuration)
      try daemon.run(handleSignals: true) { path in
        // One line on stdout once listening: scripts and tests wait for it; systemd hears READY=1.
        print("chimed listening on \(path)")
        fflush(nil)
        ServiceManager.notify("READY=1\n" + Watchdog.status(DaemonStats(), socketPath: path))
        Watchdog.start(daemon, everyMillis: ServiceManager.watchdogPingMillis(), socketPath: path)
      }
    } catch {
      FileHandle.standardError.write(Data("chimed: \(error.message)\n".utf8))
      throw ExitCode(1)
    }
  }

  /// The presenters and sound from the flags (see `PresenterSelection`).
  func presentation() throws -> PresentationConfiguration {
    var presentation = PresentationConfiguration()
    let environment = ProcessInfo.processInfo.environment
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let sessionBus = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
      || runtimeBus.map { FileManager.default.fileExists(atPath: $0) } == true
    switch PresenterSelection.choose(list: presenter, command: presentCommand, sessionBus: sessionBus) {
    case .success(let kinds): presentation.presenters = kinds
    case .failure(let error): throw ValidationError(error.description)
    }
    if let presentCommand, !presentCommand.isEmpty { presentation.command = [presentCommand] }
    guard presentTimeout > 0 else { throw ValidationError("--present-timeout must be more than 0 seconds") }
    presentation.commandTimeoutMillis = Int(presentTimeout * 1000)
    presentation.playSounds = soundPlayer != "none"
    presentation.soundPlayer = soundPlayer == "none" ? nil : soundPlayer
    return presentation
  }

  /// "100MB", "1.5GB", "500kB", "5000000" → bytes (decimal units, as the attachment limits).
  static func bytes(_ text: String) -> Int64? {
    let units: [(String, Double)] = [("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("kB", 1e3), ("B", 1)]
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
      guard let value = Double(trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else { return nil }
      return Int64(exactly: (value * scale).rounded())
    }
    return Int64(trimmed)
  }
}
