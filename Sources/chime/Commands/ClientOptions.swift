import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// Options every subcommand takes after its name.
struct ClientOptions: ParsableArguments {
  @Option(help: "chimed's socket (default: $CHIME_SOCKET, else $XDG_RUNTIME_DIR/chime/chimed.sock, else /tmp/chime-UID/chimed.sock).")
  var socket: String?

  @Option(help: "App identifier to act for (default: $CHIME_APP, else chime.cli).")
  var app: String?

  @Flag(help: "Print machine-readable JSON.")
  var json = false

  @Option(parsing: .unconditional, help: ArgumentHelp("Cut table cells with … so lines fit N columns, also when piped (default: the terminal's width on a terminal, $COLUMNS first; no limit when piped; 0: no limit).",
                             valueName: "N"))
  var width: Int?

  /// The width tables are cut to, nil for none (never in JSON).
  var tableWidth: Int? { json ? nil : OutputWidth.columns(requested: width) }

  @Option(help: ArgumentHelp("How long a call may take before it fails with DEADLINE_EXCEEDED (e.g. 10s, 2m; 0 waits forever).",
                             valueName: "duration"))
  var timeout: String = "60s"

  /// `--timeout`: any duration, or 0 for none.
  static let timeoutBounds = DurationInput.Bounds(noun: "timeout", allowsZero: true)

  /// `--timeout` in seconds; nil for 0 (no deadline).
  var timeoutSeconds: Double? {
    let seconds = (try? DurationInput.parse(timeout, Self.timeoutBounds)) ?? 60
    return seconds == 0 ? nil : seconds
  }

  func validate() throws {
    if let width, width < 0 { throw ValidationError("--width takes a number of columns, or 0 for no limit (got \(width))") }
    if let app, app.trimmingWhitespace().isEmpty {
      throw ValidationError("--app is empty; give an app identifier, or leave --app out for $CHIME_APP or chime.cli")
    }
    _ = try DurationOption.parse(timeout, option: "--timeout", Self.timeoutBounds, hint: "--timeout takes a duration such as 30s or 2m, or 0 for none")
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

/// Runs a command body, turning a ChimeError into a message on stderr and an exit code; with
/// `json`, also into one JSON object on stdout (`code`, `reason`, `message`, `field`,
/// `exit_status`), so a script reading stdout sees the refusal.
func reporting(json: Bool = false, _ body: () async throws -> Void) async throws {
  do {
    try await body()
  } catch let error as ChimeError {
    let status: Int32 = error.code == .unavailable ? 69 : 1
    report(error, json: json, status: status)
    throw ExitCode(status)
  }
}

/// Prints a refusal: one line on stderr, and with `json` one object on stdout.
func report(_ error: ChimeError, json: Bool, status: Int32) {
  if json {
    JSONOutput.print(JSONOutput.error(error, status: status))
  }
  var line = "chime: \(error.code)"
  if !error.reason.isEmpty && error.reason != "\(error.code)" { line += " \(error.reason)" }
  line += ": \(error.message)"
  if !error.field.isEmpty { line += " (field \(error.field))" }
  printError(line)
}
