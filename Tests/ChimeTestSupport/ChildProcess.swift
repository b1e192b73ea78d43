import Foundation

/// Runs a program to its end and captures what it printed; a run that takes longer than
/// `timeout` seconds is killed (and fails on its status), so no test hangs on a child.
public enum ChildProcess {
  public struct Result: Sendable {
    /// The exit status; 128 + n for signal n; -1 when it was killed for taking too long.
    public var status: Int32
    public var output: String
    public var errors: String
  }

  /// `environment` entries are set on top of the test's own; `directory` is the child's
  /// working directory.
  public static func run(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
                         directory: String? = nil, timeout: Double = 60) throws -> Result {
    let scratch = TemporaryDirectory(prefix: "chime-run")
    var program = executable, args = arguments
    if let directory {
      // posix_spawn has no portable chdir action: let a shell change directory and exec.
      program = "/bin/sh"
      args = ["-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
    }
    let child = try SpawnedProcess(program, args, environment: SpawnedProcess.environment(extra.mapValues { $0 }),
                                   stdout: scratch.file("out"), stderr: scratch.file("err"))
    let status = child.waitForExit(seconds: timeout) ?? -1
    let read = { (name: String) in (try? String(contentsOfFile: scratch.file(name), encoding: .utf8)) ?? "" }
    return Result(status: status, output: read("out"), errors: read("err"))
  }
}
