import ArgumentParser
import ChimeBuildInfo
import ChimeClient
import ChimeConfig
import ChimeCore
import ChimeSystem
import FoundationEssentials
import Glibc

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

  var line: String {
    let mark = status.rawValue.padded(to: 4)
    return "\(mark) \(name): \(detail)" + (hint.isEmpty ? "" : "\n       hint: \(hint)")
  }

  var json: [String: Any] { ["name": name, "status": status.rawValue, "detail": detail, "hint": hint] }
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
    if let socket { flags[ConfigKey.socket.name] = socket }
    if let dataDir { flags[ConfigKey.dataDir.name] = dataDir }
    let path = config ?? ConfigFile.defaultPath(environment: environment, home: home)
    let settings: ChimedConfig
    do throws(ConfigError) {
      let file = try ConfigFile.load(path: path, required: config != nil)
      settings = try ChimedConfig.resolve(flags: flags, file: file, environment: environment, home: home,
                                          uid: ProcessEnvironment.userID)
      checks.append(DoctorCheck(name: "config", status: .ok, detail: file == nil ? "no \(path); defaults" : path))
    } catch {
      checks.append(DoctorCheck(name: "config", status: .fail, detail: error.message,
                                hint: "fix the file: chimed refuses to start with it (`chimed --print-config` checks it)"))
      settings = (try? ChimedConfig.resolve(flags: flags, file: nil, environment: environment, home: home,
                                            uid: ProcessEnvironment.userID))!
    }
    checks.append(socketCheck(settings.socket))
    checks += await daemonChecks(settings.socket, dataDirectory: settings.dataDirectory)
    checks.append(dataDirCheck(settings.dataDirectory))
    checks.append(databaseCheck(settings.dataDirectory + "/chime.db"))
    checks.append(busCheck(environment))
    checks.append(soundCheck(settings.soundPlayer))
    checks.append(systemdCheck())
    return checks
  }

  func socketCheck(_ path: String) -> DoctorCheck {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      return DoctorCheck(name: "socket", status: .fail, detail: "\(path): \(String(cString: strerror(errno)))",
                         hint: "chimed is not running: `systemctl --user enable --now chimed.socket` (after `make install-user`) or run `chimed`")
    }
    let mode = info.st_mode & 0o7777
    let detail = "\(path) (owner uid \(info.st_uid), mode \(String(mode, radix: 8)))"
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + " is not a socket", hint: "remove it and restart chimed")
    }
    guard info.st_uid == getuid() else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + ": another user's",
                         hint: "each user runs their own chimed; check $CHIME_SOCKET and --socket")
    }
    return DoctorCheck(name: "socket", status: .ok, detail: detail)
  }

  /// Reachable and answering; the same version as this CLI; serving the data directory this
  /// configuration names.
  func daemonChecks(_ path: String, dataDirectory: String) async -> [DoctorCheck] {
    let started = Date()
    let info: ServerInfo
    do throws(ChimeError) {
      let client = try ChimeClient.connect(socketPath: path, app: "chime.doctor", timeout: 5)
      do {
        info = try await client.serverInfo()
      } catch where error.code == .unimplemented {
        _ = try await client.settings()
        return [DoctorCheck(name: "daemon", status: .ok, detail: "answered in \(Self.millis(since: started)) ms"),
                DoctorCheck(name: "version", status: .warn, detail: "chimed is older than this chime \(BuildInfo.version) (no GetServerInfo)",
                            hint: Self.restartHint)]
      }
    } catch {
      return [DoctorCheck(name: "daemon", status: .fail, detail: "\(error.code) \(error.reason): \(error.message)",
                          hint: "start chimed (`systemctl --user start chimed.socket`) and see its log (`journalctl --user -u chimed`)")]
    }
    let up = DurationText.format(max(0, Date().timeIntervalSince(info.startedAt.date)))
    var checks = [DoctorCheck(name: "daemon", status: .ok,
                              detail: "pid \(info.processID), up \(up), answered in \(Self.millis(since: started)) ms")]
    checks.append(info.version == BuildInfo.version
      ? DoctorCheck(name: "version", status: .ok, detail: "chime and chimed \(info.version)")
      : DoctorCheck(name: "version", status: .warn, detail: "chime \(BuildInfo.version), chimed \(info.version)", hint: Self.restartHint))
    let configured = FileSystem.realPath(dataDirectory) ?? dataDirectory
    if configured != info.dataDirectory {
      checks.append(DoctorCheck(name: "daemon-data-dir", status: .warn,
                                detail: "chimed serves \(info.dataDirectory); this configuration names \(configured)",
                                hint: "the checks below look at \(configured): pass --data-dir, or start chimed with the same configuration"))
    }
    return checks
  }

  static let restartHint = "restart chimed to run the installed version (`systemctl --user restart chimed`)"

  static func millis(since start: Date) -> Int { Int(Date().timeIntervalSince(start) * 1000) }

  func dataDirCheck(_ path: String) -> DoctorCheck {
    var info = stat()
    guard stat(path, &info) == 0 else {
      return DoctorCheck(name: "data-dir", status: .warn, detail: "\(path) does not exist yet", hint: "chimed creates it on start")
    }
    guard access(path, W_OK) == 0 else {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is not writable: \(String(cString: strerror(errno)))",
                         hint: "chimed cannot store requests: fix the permissions or the mount (read-only?), or set data-dir")
    }
    var fs = statvfs()
    guard statvfs(path, &fs) == 0 else {
      return DoctorCheck(name: "data-dir", status: .warn, detail: "\(path): statvfs failed")
    }
    if fs.f_flag & UInt(ST_RDONLY) != 0 {
      return DoctorCheck(name: "data-dir", status: .fail, detail: "\(path) is on a read-only file system",
                         hint: "move data-dir to a writable file system")
    }
    let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    let text = "\(path) writable, \(free / 1_000_000) MB free"
    if free < 50_000_000 {
      return DoctorCheck(name: "data-dir", status: .warn, detail: text, hint: "less than 50 MB free: adds will fail when the disk is full")
    }
    return DoctorCheck(name: "data-dir", status: .ok, detail: text)
  }

  func databaseCheck(_ path: String) -> DoctorCheck {
    guard FileManager.default.fileExists(atPath: path) else {
      return DoctorCheck(name: "database", status: .warn, detail: "\(path) does not exist yet", hint: "chimed creates it on start")
    }
    let report: DoctorDatabase.Report
    do throws(DoctorDatabase.Failure) {
      report = try DoctorDatabase.inspect(path: path)
    } catch {
      return DoctorCheck(name: "database", status: .fail, detail: "\(path): \(error)", hint: "check the file's permissions")
    }
    guard report.integrity == ["ok"] else {
      return DoctorCheck(name: "database", status: .fail, detail: "integrity_check: \(report.integrity.prefix(3).joined(separator: "; "))",
                         hint: "stop chimed and restore \(path) from a backup")
    }
    let detail = "\(path): integrity ok, schema \(report.migrations.count) migrations (last \"\(report.migrations.last ?? "none")\")"
    guard report.pageSize <= DoctorDatabase.currentPageSize else {
      return DoctorCheck(name: "database", status: .warn,
                         detail: detail + ", \(report.pageSize)-byte pages (a new store has \(DoctorDatabase.currentPageSize))",
                         hint: "stop chimed, run `chimed --compact-store`, start it again: each lone add's commit then syncs half the bytes")
    }
    return DoctorCheck(name: "database", status: .ok, detail: detail)
  }

  func busCheck(_ environment: [String: String]) -> DoctorCheck {
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
    guard !address.isEmpty || runtimeBus.map({ FileManager.default.fileExists(atPath: $0) }) == true else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "no DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus",
                         hint: "deliveries are not shown on the desktop (the log and a present-command still work)")
    }
    guard Subprocess.which("busctl") != nil else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "a session bus is set, busctl not found to check the notification server")
    }
    let result = Shell.capture("busctl --user --timeout=3 call org.freedesktop.Notifications /org/freedesktop/Notifications org.freedesktop.Notifications GetServerInformation")
    guard result.status == 0 else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "no notification server: \(result.output.prefix(200))",
                         hint: "start one (dunst, mako, your desktop's) for desktop notifications")
    }
    return DoctorCheck(name: "session-bus", status: .ok, detail: "notification server: \(result.output.trimmingWhitespaceAndNewlines())")
  }

  func soundCheck(_ configured: String?) -> DoctorCheck {
    if configured == "none" { return DoctorCheck(name: "sound", status: .ok, detail: "sound-player = none: silent") }
    if let configured {
      let program = String(configured.split(separator: " ").first ?? "")
      let found = program.hasPrefix("/") ? FileManager.default.isExecutableFile(atPath: program) : Subprocess.which(program) != nil
      return found ? DoctorCheck(name: "sound", status: .ok, detail: "sound-player \(program)")
        : DoctorCheck(name: "sound", status: .warn, detail: "sound-player \(program) not found", hint: "install it or change sound-player")
    }
    let players = SoundBackendChoice.knownPlayers.filter { Subprocess.which($0) != nil }
    let canberra = ["/usr/lib/x86_64-linux-gnu/libcanberra.so.0", "/usr/lib/aarch64-linux-gnu/libcanberra.so.0", "/usr/lib/libcanberra.so.0"]
      .contains { FileManager.default.fileExists(atPath: $0) }
    if !canberra && players.isEmpty {
      return DoctorCheck(name: "sound", status: .warn, detail: "neither libcanberra nor \(SoundBackendChoice.knownPlayers.joined(separator: ", ")) found",
                         hint: "deliveries are silent; install pipewire-bin, pulseaudio-utils or alsa-utils")
    }
    let what = (canberra ? ["libcanberra"] : []) + players
    return DoctorCheck(name: "sound", status: .ok, detail: what.joined(separator: ", "))
  }

  func systemdCheck() -> DoctorCheck {
    guard Subprocess.which("systemctl") != nil, Shell.capture("systemctl --user show-environment").status == 0 else {
      return DoctorCheck(name: "systemd", status: .warn, detail: "no user systemd reachable",
                         hint: "without it, start chimed yourself; with it, `make install-user` enables chimed.socket")
    }
    func word(_ command: String, _ unit: String) -> String {
      Shell.capture("systemctl --user \(command) \(unit)").output.trimmingWhitespaceAndNewlines()
    }
    let socketEnabled = word("is-enabled", "chimed.socket"), socketActive = word("is-active", "chimed.socket")
    let serviceActive = word("is-active", "chimed.service")
    let detail = "chimed.socket \(socketEnabled), \(socketActive); chimed.service \(serviceActive)"
    guard socketEnabled == "enabled", socketActive == "active" else {
      return DoctorCheck(name: "systemd", status: .warn, detail: detail,
                         hint: "`systemctl --user enable --now chimed.socket` (units from `make install-user`)")
    }
    return DoctorCheck(name: "systemd", status: .ok, detail: detail)
  }
}

/// A short shell command's status and output (stdout and stderr), through a temporary file:
/// `Subprocess` sends output to stderr.
enum Shell {
  static func capture(_ command: String) -> (status: Int32, output: String) {
    let file = ProcessEnvironment.temporaryDirectory + "chime-doctor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(file) }
    let outcome = Subprocess.run(["/bin/sh", "-c", "exec \(command) >\"$0\" 2>&1", file], timeoutMillis: 5_000)
    let output = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    if case .exited(let status) = outcome { return (status, output) }
    return (-1, output.isEmpty ? "\(outcome)" : output)
  }
}
