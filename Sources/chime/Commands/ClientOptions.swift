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

  var appID: String {
    if let app, !app.isEmpty { return app }
    if let env = ProcessEnvironment.variables["CHIME_APP"], !env.isEmpty { return env }
    return "chime.cli"
  }

  var socketPath: String { SocketPath.resolve(socket) }

  func connect() throws -> ChimeClient {
    try ChimeClient.connect(socketPath: socketPath, app: appID)
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
