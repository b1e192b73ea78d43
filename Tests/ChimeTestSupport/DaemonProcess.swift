import Foundation
import Glibc
import ChimeCore

/// The real `chimed` binary, started in a temporary directory for end-to-end tests.
public final class DaemonProcess: @unchecked Sendable {
  public let socketPath: String
  public let dataDirectory: String
  private let arguments: [String]
  private let environment: [String: String]
  private let directory: TemporaryDirectory
  private let stderrFile: String
  private var child: SpawnedProcess?
  public private(set) var listeningLine = ""

  /// The directory holding the built products (`chimed`, `chime`): `$CHIME_BIN_DIR`, else the
  /// directory of the running test bundle, which SwiftPM builds next to them.
  public static var binDirectory: String {
    if let dir = ProcessInfo.processInfo.environment["CHIME_BIN_DIR"], !dir.isEmpty { return dir }
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("chimed").path) { return url.path }
    }
    return ".build/debug"
  }

  /// systemd's stand-alone socket activator (Debian's `systemd` package).
  public static let socketActivate = "/usr/bin/systemd-socket-activate"

  /// `environment` entries are set on top of the test's own (nil values remove a variable).
  public init(directory: TemporaryDirectory, arguments: [String] = [], environment extra: [String: String?] = [:]) {
    socketPath = directory.socketPath
    dataDirectory = directory.file("data")
    self.directory = directory
    stderrFile = directory.file("chimed.log")
    // A fresh log per daemon (a test may start several in one directory).
    _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
    self.arguments = ["--socket", socketPath, "--data-dir", dataDirectory, "--log-level", "debug"] + arguments
    var changes = extra
    changes["CHIME_SOCKET"] = .some(nil)
    environment = SpawnedProcess.environment(changes)
  }

  /// Starts the daemon and waits (bounded) for its "listening" line.
  public func start(timeout: Double = 30) throws {
    // Its own stdout file: an earlier daemon's "listening" line must not count for this one.
    let stdoutFile = directory.file("chimed-\(UUID().uuidString).out")
    let child = try SpawnedProcess(Self.binDirectory + "/chimed", arguments, environment: environment,
                                   stdout: stdoutFile, stderr: stderrFile)
    self.child = child
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let out = (try? String(contentsOfFile: stdoutFile, encoding: .utf8)) ?? ""
      if let newline = out.firstIndex(of: "\n") {
        listeningLine = String(out[..<newline])
        return
      }
      if !child.isRunning { break }  // it exited without listening
      usleep(5_000)
    }
    throw ChimeError(.unavailable, reason: "DAEMON_DID_NOT_START", "chimed did not report listening; log:\n\(log)")
  }

  public var log: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

  public var isRunning: Bool { child?.isRunning ?? false }

  public var processIdentifier: Int32 { child?.pid ?? 0 }

  /// SIGTERM, then waits (bounded) for the exit; returns the exit status (-1 when it had to be
  /// killed).
  @discardableResult
  public func terminate() -> Int32 {
    guard let child else { return -1 }
    child.signal(SIGTERM)
    return child.waitForExit(seconds: 60) ?? -1
  }

  /// Waits for an exit already asked for (a signal sent by the test); returns the exit status,
  /// or nil when chimed is still running after `seconds` (it is then killed, so a hung
  /// shutdown fails the test instead of hanging the suite).
  public func waitForExit(seconds: Double = 20) -> Int32? {
    child?.waitForExit(seconds: seconds)
  }

  /// SIGKILL: no chance to clean up (crash-safety tests).
  public func kill9() {
    guard let child else { return }
    child.signal(SIGKILL)
    _ = child.waitForExit(seconds: 20)
  }
}
