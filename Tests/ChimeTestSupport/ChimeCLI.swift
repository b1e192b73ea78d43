import Foundation

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
    var environment: [String: String] = [:]
    if let socket { environment["CHIME_SOCKET"] = socket }
    if let app { environment["CHIME_APP"] = app }
    let result = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", arguments, environment: environment,
                                      directory: directory, timeout: timeout)
    return Run(status: result.status, stdout: result.output, stderr: result.errors)
  }

  /// `run` on a thread of its own, so a test can wait for the CLI while it does other work (an
  /// extension answering the CLI's call) without holding one of the few cooperative threads.
  public static func runInBackground(_ arguments: [String], socket: String? = nil, app: String? = nil,
                                     timeout: Double = 60) async throws -> Run {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try run(arguments, socket: socket, app: app, timeout: timeout) })
      }.start()
    }
  }
}
