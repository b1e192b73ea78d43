import Dispatch
public import Foundation
import Glibc

/// Runs the built `chime` binary as a user would, capturing its output.
public enum ChimeCLI {
  public struct Run: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// The `--json` output as an object (nil when it is not one).
    public var object: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] }
    /// The `--json` output as an array of objects (nil when it is not one).
    public var objects: [[String: Any]]? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]] }
  }

  /// `chime ARGUMENTS` with `CHIME_SOCKET` and `CHIME_APP` set when given, from `directory`.
  /// A run that takes longer than `timeout` seconds is killed (and fails on its status).
  public static func run(_ arguments: [String], socket: String? = nil, app: String? = nil, directory: String? = nil,
                         timeout: Double = 60) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: DaemonProcess.binDirectory + "/chime")
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    if let socket { environment["CHIME_SOCKET"] = socket }
    if let app { environment["CHIME_APP"] = app }
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    // Read both pipes at once so a full stderr cannot block the child while we wait on stdout.
    let stderrData = Mutex<Data>()
    let reader = Thread { stderrData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let stderr = stderrData.wait()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// A value handed from the stderr reader thread.
  private final class Mutex<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func set(_ new: Value) {
      condition.lock()
      value = new
      condition.signal()
      condition.unlock()
    }

    func wait() -> Value {
      condition.lock()
      defer { condition.unlock() }
      while value == nil { condition.wait() }
      return value!
    }
  }
}
