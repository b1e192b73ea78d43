import ArgumentParser
import ChimeBuildInfo
import ChimeClient
import ChimeConfig
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime doctor`: checks what chimed needs, one line each (ok, warn or fail, with a hint).
struct Doctor: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "doctor",
    abstract: "Check the daemon, its socket, data, session bus, sound and systemd units.",
    discussion: """
      Finds the socket and data directory as chimed does (flags, then $CHIME_SOCKET and \
      $XDG_* variables, then chimed.toml, then defaults). Each check prints ok, warn or fail \
      with a hint; exits 0 only when nothing fails (1 otherwise).

      Examples:
        chime doctor
        chime doctor --json
      """
  )

  @Option(help: "chimed's socket (default: as chimed finds it).")
  var socket: String?
  @Option(help: "chimed's data directory (default: as chimed finds it).")
  var dataDir: String?
  @Option(help: "chimed's configuration file (default: $XDG_CONFIG_HOME/chime/chimed.toml).")
  var config: String?
  @Flag(help: "Print machine-readable JSON.")
  var json = false

  func run() async throws {
    let checks = await DoctorChecks(socket: socket, dataDir: dataDir, config: config).all()
    if json {
      JSONOutput.print(["ok": !checks.contains { $0.status == .fail },
                        "checks": checks.map(\.json)])
    } else {
      for check in checks { print(check.line) }
    }
    if checks.contains(where: { $0.status == .fail }) { throw ExitCode(1) }
  }
}

struct DoctorCheck {
  enum Status: String { case ok, warn, fail }
  var name: String
  var status: Status
  var detail: String
  var hint: String = ""

  init(name: String, status: Status, detail: String, hint: String = "") {
    self.name = name
    self.status = status
    self.detail = Self.oneLine(detail)
    self.hint = Self.oneLine(hint)
  }

  var line: String {
    let mark = status.rawValue.padded(to: 4)
    return "\(mark) \(name): \(TerminalText.escaped(detail))" + (hint.isEmpty ? "" : "\n       hint: \(TerminalText.escaped(hint))")
  }

  var json: [String: Any] { ["name": name, "status": status.rawValue, "detail": detail, "hint": hint] }

  /// A program's output as part of one line: trimmed, its lines joined with "; ".
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespaceAndNewlines() }.filter { !$0.isEmpty }.joined(separator: "; ")
  }
}

struct DoctorChecks {
  let socket: String?
  let dataDir: String?
  let config: String?

  func all() async -> [DoctorCheck] {
    var checks: [DoctorCheck] = []
    let environment = ProcessEnvironment.variables
    let home = ProcessEnvironment.homeDirectory
    var flags: [String: String] = [:]
    // Doctor's own --socket and --data-dir are typed in a shell: relative to where it runs.
    func absolute(_ path: String) -> String { path.hasPrefix("~") ? path : FileSystem.absolute(path) }
    if let socket { flags[ChimedSettings.socket.name] = absolute(socket) }
    if let dataDir { flags[ChimedSettings.dataDir.name] = absolute(dataDir) }
    let path = config ?? ConfigFile.defaultPath(environment: environment, home: home)
    // Asked first, printed last: every hint before it agrees with what systemd says.
    let systemd = DoctorSystemd.ask()
    let socketPath: String, dataDirectory: String, soundPlayer: String?
    do throws(ConfigError) {
      let file = try ConfigFile.load(path: path, required: config != nil)
      let settings = try ChimedConfig.resolve(flags: flags, file: file, environment: environment, home: home,
                                              uid: ProcessEnvironment.userID)
      (socketPath, dataDirectory, soundPlayer) = (settings.settings.paths.socketPath, settings.settings.paths.dataDirectory, settings.settings.presentation.soundPlayer)
      checks.append(DoctorCheck(name: "config", status: .ok, detail: file == nil ? "no \(path); defaults" : path))
    } catch {
      checks.append(DoctorCheck(name: "config", status: .fail, detail: error.message, hint: systemd.configFixHint))
      // The rest is checked where chimed would look without the file.
      socketPath = flags[ChimedSettings.socket.name] ?? SocketPath.resolve(nil, environment: environment, uid: ProcessEnvironment.userID)
      dataDirectory = flags[ChimedSettings.dataDir.name] ?? DataDirectory.resolve(nil, environment: environment, home: home)
      soundPlayer = nil
    }
    let socket = socketCheck(socketPath, systemd: systemd)
    checks.append(socket)
    checks += await daemonChecks(socketPath, dataDirectory: dataDirectory, systemd: systemd,
                                 socketFailed: socket.status == .fail, configFailed: checks[0].status == .fail)
    let dataDir = dataDirCheck(dataDirectory)
    checks.append(dataDir)
    checks.append(databaseCheck(dataDirectory + "/chime.db", dataDir: dataDir))
    checks.append(busCheck(environment))
    checks.append(dbusAPICheck(environment))
    checks.append(soundCheck(soundPlayer, environment: environment))
    checks.append(systemd.check)
    return checks
  }
}

/// A short shell command's status and output (stdout and stderr), through a temporary file:
/// `Subprocess` sends output to stderr.
enum Shell {
  static func capture(_ command: String) -> (status: Int32, output: String) {
    let file = ProcessEnvironment.temporaryDirectory + "chime-doctor-\(ProcessEnvironment.processID)-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileSystem.unlink(file) }
    let outcome = Subprocess.run(["/bin/sh", "-c", "exec \(command) >\"$0\" 2>&1", file], timeoutMillis: 5_000)
    let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    if case .exited(let status) = outcome { return (status, output) }
    return (-1, output.isEmpty ? "\(outcome)" : output)
  }
}
