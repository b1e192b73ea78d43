import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import Foundation

/// Options every subcommand takes after its name.
struct ClientOptions: ParsableArguments {
  @Option(help: "chimed's socket (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock).")
  var socket: String?

  @Option(help: "App identifier to act for (default: $CHIME_APP, else chime.cli).")
  var app: String?

  @Flag(help: "Print machine-readable JSON.")
  var json = false

  @Option(help: ArgumentHelp("How long a call may take before it fails with DEADLINE_EXCEEDED (e.g. 10s, 2m; 0 waits forever).",
                             valueName: "duration"))
  var timeout: String = "60s"

  /// `--timeout` in seconds; nil for 0 (no deadline).
  var timeoutSeconds: Double? {
    let seconds = DurationText.parse(timeout) ?? 60
    return seconds == 0 ? nil : seconds
  }

  func validate() throws {
    guard let seconds = DurationText.parse(timeout), seconds >= 0 else {
      throw ValidationError("--timeout takes a duration such as 30s or 2m, or 0 for none (got \"\(timeout)\")")
    }
  }

  var appID: String {
    if let app, !app.isEmpty { return app }
    if let env = ProcessEnvironment.variables["CHIME_APP"], !env.isEmpty { return env }
    return "chime.cli"
  }

  var socketPath: String { SocketPath.resolve(socket) }

  func connect(app: String? = nil) throws -> ChimeClient {
    try ChimeClient.connect(socketPath: socketPath, app: app ?? appID, timeout: timeoutSeconds)
  }
}

/// Runs a command body, turning a ChimeError into a message on stderr and an exit code.
func reporting(_ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as ChimeError {
    var line = "chime: \(error.code)"
    if !error.reason.isEmpty && error.reason != "\(error.code)" { line += " \(error.reason)" }
    line += ": \(error.message)"
    if !error.field.isEmpty { line += " (field \(error.field))" }
    printError(line)
    throw ExitCode(error.code == .unavailable ? 69 : 1)
  }
}
