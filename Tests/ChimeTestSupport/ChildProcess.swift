import Dispatch
public import Foundation
import Glibc

/// Runs a program to its end and captures what it printed; a run that takes longer than
/// `timeout` seconds is killed (and fails on its status), so no test hangs on a child.
public enum ChildProcess {
  public struct Result: Sendable {
    public var status: Int32
    public var output: String
    public var errors: String
  }

  /// `environment` entries are set on top of the test's own.
  public static func run(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
                         directory: String? = nil, timeout: Double = 60) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try ProcessLaunch.run(process)
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    // Read both pipes at once so a full stderr cannot block the child while we wait on stdout.
    let stderrData = Handoff<Data>()
    let reader = Thread { stderrData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let stderr = stderrData.wait()
    return Result(status: process.terminationStatus, output: String(decoding: stdout, as: UTF8.self),
                  errors: String(decoding: stderr, as: UTF8.self))
  }

  /// A value handed from the stderr reader thread.
  private final class Handoff<Value>: @unchecked Sendable {
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
