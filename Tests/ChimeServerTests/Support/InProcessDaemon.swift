import ChimeConfig
import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeDBus
import ChimeGRPC
import ChimeNativeTransport
import ChimeServer
import ChimeTestSupport
import Foundation
import Glibc
import Logging
import Testing

/// A real ChimeDaemon running in the test process on a temporary socket, with a manual clock.
/// Time moves only when a test says so: `advance(seconds:)` moves the clock and tells the
/// daemon to look at its schedule again.
final class InProcessDaemon: @unchecked Sendable {
  let directory: TemporaryDirectory
  let clock: ManualWallClock
  private(set) var daemon: ChimeDaemon
  private let tweak: @Sendable (inout ServerConfiguration) -> Void

  init(clock: ManualWallClock = ManualWallClock(), directory: TemporaryDirectory = TemporaryDirectory(),
       tweak: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) throws {
    self.directory = directory
    self.clock = clock
    self.tweak = tweak
    daemon = try Self.makeDaemon(directory: directory, clock: clock, tweak: tweak)
    try daemon.startInBackground()
  }

  private static func makeDaemon(directory: TemporaryDirectory, clock: ManualWallClock,
                                 tweak: (inout ServerConfiguration) -> Void) throws -> ChimeDaemon {
    var logger = Logger(label: "chimed-test")
    logger.logLevel = .warning
    var configuration = ServerConfiguration(socketPath: directory.socketPath, dataDirectory: directory.file("data"), logger: logger)
    configuration.hooks.clock = clock
    // A ring's real-time limit follows the manual clock too: time moves when the test says so.
    configuration.hooks.monotonicMillis = { clock.now().unixMillis }
    configuration.paths.appsDirectory = directory.file("apps")
    tweak(&configuration)
    // What chimed does for the process: a peer that hung up is an EPIPE, not a signal; the data
    // directory exists.
    signal(SIGPIPE, SIG_IGN)
    try FileManager.default.createDirectory(atPath: configuration.paths.dataDirectory, withIntermediateDirectories: true)
    return try ChimeDaemon(configuration: configuration, transports: Self.servedTransports)
  }

  /// What chimed serves: gRPC and the native framing on the socket, the D-Bus API where a
  /// test names a bus, the freedesktop presenter's connection where a test turns it on.
  static var servedTransports: ServerTransports {
    ServerTransports(socket: [GRPCTransport(), NativeTransport()], others: [DBusTransport()], notificationServer: NotificationServer())
  }

  var socketPath: String { directory.socketPath }

  /// A client of the daemon: over its Unix socket, or through its in-process transport.
  func client(app: String = "org.example.app", over transport: Transport = .socket) throws -> ChimeClient {
    switch transport {
    case .socket: try ChimeClient.connect(socketPath: socketPath, app: app)
    case .inProcess: ChimeClient(connection: daemon.inProcessTransport(), app: app)
    }
  }

  func advance(seconds: Double) {
    clock.advance(seconds: seconds)
    daemon.clockDidChange()
  }

  /// Stops the daemon gracefully and starts a new one on the same data directory.
  func restart() throws {
    daemon.shutdown()
    guard stopped() else { throw CancellationError() }
    daemon = try Self.makeDaemon(directory: directory, clock: clock, tweak: tweak)
    try daemon.startInBackground()
  }

  /// Stops the daemon, moves the clock `seconds` on while it is down (the machine was off) and
  /// does `whileDown` (what other programs did meanwhile), then starts a new one on the same
  /// data directory.
  func restart(afterBeingDownFor seconds: Double, whileDown: () throws -> Void = {}) throws {
    daemon.shutdown()
    guard stopped() else { throw CancellationError() }
    clock.advance(seconds: seconds)
    try whileDown()
    daemon = try Self.makeDaemon(directory: directory, clock: clock, tweak: tweak)
    try daemon.startInBackground()
  }

  /// Stops the daemon and waits for it, at most a minute: a daemon that does not stop is a
  /// test failure naming what kept its loop running, not a test blocking one of the few threads
  /// every other test needs.
  func stop() {
    daemon.shutdown()
    _ = stopped()
  }

  private func stopped() -> Bool {
    guard !daemon.waitUntilStopped(seconds: 60) else { return true }
    let handles = daemon.openHandles() ?? daemon.handlesLeftOpen
    Issue.record("the daemon did not stop within 60 s; still open: \(handles.joined(separator: "; "))")
    return false
  }

  deinit { stop() }
}

/// The two ways a test reaches the daemon; tests that take `Transport.allCases` run the same
/// body through the router with no socket and through the real socket.
enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case inProcess, socket
  var testDescription: String { rawValue }
}

extension NotificationRequest {
  static func tea(_ id: String = "tea", title: String = "Tea", in seconds: Double? = 10, repeats: Bool = false) -> NotificationRequest {
    NotificationRequest(
      identifier: id, content: NotificationContent(title: title, body: "Steeped"),
      trigger: seconds.map { .timeInterval(TimeIntervalTrigger(seconds: $0, repeats: repeats)) })
  }
}
