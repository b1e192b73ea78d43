public import Foundation
import Glibc
import ChimeCore

/// The real `chimed` binary, started in a temporary directory for end-to-end tests.
public final class DaemonProcess: @unchecked Sendable {
  public let socketPath: String
  public let dataDirectory: String
  private let process = Process()
  private let stdout = Pipe()
  private let stderrFile: String
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

  /// `environment` entries are set on top of the test's own (nil values remove a variable).
  public init(directory: TemporaryDirectory, arguments: [String] = [], environment extra: [String: String?] = [:]) {
    socketPath = directory.socketPath
    dataDirectory = directory.file("data")
    stderrFile = directory.file("chimed.log")
    process.executableURL = URL(fileURLWithPath: Self.binDirectory + "/chimed")
    process.arguments = ["--socket", socketPath, "--data-dir", dataDirectory, "--log-level", "debug"] + arguments
    process.standardOutput = stdout
    FileManager.default.createFile(atPath: stderrFile, contents: nil)
    process.standardError = FileHandle(forWritingAtPath: stderrFile)
    var environment = ProcessInfo.processInfo.environment
    environment["CHIME_SOCKET"] = nil
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
  }

  /// systemd's stand-alone socket activator (Debian's `systemd` package).
  public static let socketActivate = "/usr/bin/systemd-socket-activate"

  /// Starts the daemon and waits (bounded) for its "listening" line.
  public func start(timeout: Double = 30) throws {
    try ProcessLaunch.run(process)
    let fd = stdout.fileHandleForReading.fileDescriptor
    let deadline = Date().addingTimeInterval(timeout)
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, 200)
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 { continue }
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }  // EOF: the daemon exited
      buffer += chunk[0..<n]
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        listeningLine = String(decoding: buffer[..<newline], as: UTF8.self)
        return
      }
    }
    throw ChimeError(.unavailable, reason: "DAEMON_DID_NOT_START", "chimed did not report listening; log:\n\(log)")
  }

  public var log: String { (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? "" }

  public var isRunning: Bool { process.isRunning }

  public var processIdentifier: Int32 { process.processIdentifier }

  /// SIGTERM, then waits for the exit; returns the exit status.
  @discardableResult
  public func terminate() -> Int32 {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Waits for an exit already asked for (a signal sent by the test); returns the exit status,
  /// or nil when chimed is still running after `seconds` (it is then killed, so a hung
  /// shutdown fails the test instead of hanging the suite).
  public func waitForExit(seconds: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill9()
      return nil
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// SIGKILL: no chance to clean up (crash-safety tests).
  public func kill9() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}
