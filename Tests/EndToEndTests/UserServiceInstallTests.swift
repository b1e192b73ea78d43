import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// What the README's "As a user service" section says, done as written against a real user
/// manager (`systemd --user`) started for the test with a temporary HOME and XDG_RUNTIME_DIR:
/// `make install-user` (the debug binaries, as InstallTests), `systemctl --user enable --now
/// chimed.socket`, a first call that socket-activates chimed, `reload`, a configuration error
/// as the CLI sees it, the fix, `stop`.
///
/// The user manager runs only where `/run/systemd/system` exists (its "booted with systemd"
/// check): a test that has to create it removes it afterwards, once the manager it started
/// (by pid) has exited.
@Suite(.serialized, .enabled(if: UserManager.available, UserManager.unavailableReason))
struct UserServiceInstallTests {
  @Test func theReadmeInstallSocketActivationReloadConfigErrorAndStop() throws {
    let dir = TemporaryDirectory(prefix: "chime-user")
    let manager = try UserManager(directory: dir)
    defer { manager.stop() }
    let home = manager.home
    let chime = home + "/.local/bin/chime"

    // make install-user: the binaries in ~/.local, the units in ~/.config/systemd/user, and the
    // socket enabled and started because a user manager answers.
    let install = try manager.run("/usr/bin/make", ["-s", "install-user", "BUILD_DIR=\(DaemonProcess.binDirectory)",
                                                    "INSTALL_BUILD=", "MAN_OUT=\(dir.file("man"))"],
                                  directory: InstallTests.repository, timeout: 300)
    try #require(install.status == 0, "\(install.output)\(install.errors)")
    for file in [".local/bin/chime", ".local/bin/chimed", ".local/libexec/chime/chime-thumbnail",
                 ".config/systemd/user/chimed.socket", ".config/systemd/user/chimed.service"] {
      #expect(FileManager.default.fileExists(atPath: home + "/" + file), "\(file)")
    }
    let unit = try String(contentsOfFile: home + "/.config/systemd/user/chimed.service", encoding: .utf8)
    #expect(unit.contains("\nExecStart=\(home)/.local/bin/chimed\n"), "\(unit)")
    #expect(try manager.systemctl(["is-active", "chimed.socket"]).output == "active\n")

    // The README's own line, run again: enabling an enabled socket is fine.
    let enable = try manager.systemctl(["enable", "--now", "chimed.socket"])
    #expect(enable.status == 0, "\(enable.output)\(enable.errors)")
    #expect(try manager.systemctl(["is-active", "chimed.service"]).output != "active\n", "chimed runs before any call")

    // The first call starts chimed through the socket, at the default path.
    let first = try manager.run(chime, ["add", "tea", "--title", "Tea", "--in", "1h"], environment: ["CHIME_APP": "org.example.tea"])
    #expect(first.status == 0, "\(first.output)\(first.errors)\(manager.status())")
    #expect(try manager.systemctl(["is-active", "chimed.service"]).output == "active\n")
    let pid = try manager.mainPID()
    #expect(pid > 0)
    let pending = try manager.run(chime, ["pending"], environment: ["CHIME_APP": "org.example.tea"])
    #expect(pending.status == 0 && pending.output.contains("tea"), "\(pending.output)\(pending.errors)")
    // The store is in the unit's StateDirectory (~/.local/state/chime).
    #expect(FileManager.default.fileExists(atPath: home + "/.local/state/chime/chime.db"))

    // reload: SIGHUP re-reads chimed.toml; the same chimed goes on serving.
    let config = home + "/.config/chime/chimed.toml"
    try FileManager.default.createDirectory(atPath: home + "/.config/chime", withIntermediateDirectories: true)
    try "log-level = \"debug\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    let reload = try manager.systemctl(["reload", "chimed"])
    #expect(reload.status == 0, "\(reload.output)\(reload.errors)")
    #expect(try manager.mainPID() == pid)
    #expect(try manager.run(chime, ["pending"], environment: ["CHIME_APP": "org.example.tea"]).status == 0)

    // A configuration error: the restarted chimed stays up and every call names the cause,
    // call after call (more than systemd's start burst: no start-limit-hit).
    try "log-level = \"debug\"\nmissed-grace = \"soon\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    let restart = try manager.systemctl(["restart", "chimed"])
    #expect(restart.status == 0, "\(restart.output)\(restart.errors)\(manager.status())")
    let cause = "\(config):2: missed-grace: expected a number of seconds, got string"
    for _ in 0..<7 {
      let refused = try manager.run(chime, ["pending"], environment: ["CHIME_APP": "org.example.tea"])
      #expect(refused.status != 0)
      #expect(refused.errors.contains("FAILED_PRECONDITION CONFIG_INVALID: ") && refused.errors.contains(cause),
              "\(refused.output)\(refused.errors)")
    }
    #expect(try manager.systemctl(["is-active", "chimed.socket", "chimed.service"]).output == "active\nactive\n")
    let statusText = try manager.systemctl(["show", "-p", "StatusText", "--value", "chimed"]).output
    #expect(statusText.contains("configuration invalid") && statusText.contains(cause), "\(statusText)")

    // Fixed, then reloaded: the refusing chimed stops and the next call starts one that serves,
    // with the store as it was.
    try "log-level = \"info\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    #expect(try manager.systemctl(["reload", "chimed"]).status == 0)
    let served = try manager.run(chime, ["pending"], environment: ["CHIME_APP": "org.example.tea"])
    #expect(served.status == 0 && served.output.contains("tea"), "\(served.output)\(served.errors)\(manager.status())")

    // stop: both units down, and the CLI says chimed is not there.
    let stop = try manager.systemctl(["stop", "chimed.socket", "chimed"])
    #expect(stop.status == 0, "\(stop.output)\(stop.errors)")
    #expect(try manager.systemctl(["is-active", "chimed.socket", "chimed.service"]).output == "inactive\ninactive\n")
    let down = try manager.run(chime, ["pending"], environment: ["CHIME_APP": "org.example.tea"])
    #expect(down.status != 0 && down.errors.contains("UNAVAILABLE"), "\(down.output)\(down.errors)")
  }
}

/// A `systemd --user` of the test's own, with HOME and XDG_RUNTIME_DIR in a temporary
/// directory; every command it runs (`systemctl --user`, make, chime) gets that environment.
final class UserManager {
  static let systemd = "/lib/systemd/systemd"
  static let systemctl = "/usr/bin/systemctl"
  static let booted = "/run/systemd/system"

  static var available: Bool {
    FileManager.default.isExecutableFile(atPath: systemd) && FileManager.default.isExecutableFile(atPath: systemctl)
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/make") && FileManager.default.isExecutableFile(atPath: "/usr/bin/help2man")
      && (FileManager.default.fileExists(atPath: booted) || getuid() == 0)
  }

  static var unavailableReason: Comment {
    "needs systemd (\(systemd), systemctl), make and help2man, and root to create \(booted) when systemd is not the init"
  }

  let home: String
  let runtime: String
  private let log: String
  private let process: SpawnedProcess
  /// The test made /run/systemd/system, and removes it once the manager has exited.
  private let madeBootedMarker: Bool
  private var stopped = false

  init(directory: TemporaryDirectory) throws {
    home = directory.file("home")
    runtime = directory.file("run")
    log = directory.file("systemd.log")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
    if FileManager.default.fileExists(atPath: Self.booted) {
      madeBootedMarker = false
    } else {
      try FileManager.default.createDirectory(atPath: Self.booted, withIntermediateDirectories: true)
      madeBootedMarker = true
    }
    do {
      process = try SpawnedProcess(Self.systemd, ["--user"],
                                   environment: Self.environment(home: home, runtime: runtime,
                                                                 extra: ["SYSTEMD_LOG_TARGET": "console"]),
                                   stdout: log, stderr: log)
    } catch {
      if madeBootedMarker { try? FileManager.default.removeItem(atPath: Self.booted) }
      throw error
    }
    // Answering on its private socket ($XDG_RUNTIME_DIR/systemd/private).
    let up = pollUntil(within: 30) { (try? self.systemctl(["show-environment"]).status) == 0 }
    if !up {
      stop()
      throw ManagerError(description: "systemd --user did not answer within 30 s: \(Self.read(log))")
    }
  }

  /// A finished command: its exit status (-1 when killed for taking too long) and output.
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  struct ManagerError: Error, CustomStringConvertible {
    let description: String
  }

  /// Stops the manager (SIGTERM starts its exit.target, which stops chimed), bounded; then
  /// removes /run/systemd/system if the test made it.
  func stop() {
    guard !stopped else { return }
    stopped = true
    let chimed = (try? mainPID()) ?? 0
    process.signal(SIGTERM)
    if process.waitForExit(seconds: 20) == nil, chimed > 0 {
      // The manager was killed instead: chimed, its child, must not outlive the test.
      kill(chimed, SIGKILL)
    }
    if madeBootedMarker { try? FileManager.default.removeItem(atPath: Self.booted) }
  }

  deinit { stop() }

  /// The test's environment for a user in `home`: no session bus (systemctl --user then uses
  /// the manager's private socket) and no XDG directories but the runtime one.
  static func environment(home: String, runtime: String, extra: [String: String] = [:]) -> [String: String] {
    var changes: [String: String?] = ["HOME": home, "XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": nil,
                                      "XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": nil, "XDG_DATA_HOME": nil,
                                      "CHIME_SOCKET": nil, "CHIME_APP": nil, "NOTIFY_SOCKET": nil,
                                      "LISTEN_FDS": nil, "LISTEN_PID": nil, "MAKEFLAGS": nil, "MAKELEVEL": nil]
    for (key, value) in extra { changes[key] = value }
    return SpawnedProcess.environment(changes)
  }

  /// Runs a program to its end in the user's environment (killed after `timeout` seconds).
  func run(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:],
           directory: String? = nil, timeout: Double = 60) throws -> Run {
    let scratch = TemporaryDirectory(prefix: "chime-run")
    var program = executable, args = arguments
    if let directory {
      program = "/bin/sh"
      args = ["-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments
    }
    let child = try SpawnedProcess(program, args, environment: Self.environment(home: home, runtime: runtime, extra: extra),
                                   stdout: scratch.file("out"), stderr: scratch.file("err"))
    let status = child.waitForExit(seconds: timeout) ?? -1
    return Run(status: status, output: Self.read(scratch.file("out")), errors: Self.read(scratch.file("err")))
  }

  func systemctl(_ arguments: [String]) throws -> Run {
    try run(Self.systemctl, ["--user", "--no-pager"] + arguments, timeout: 60)
  }

  /// chimed.service's main pid (0 when it is not running).
  func mainPID() throws -> Int32 {
    Int32(try systemctl(["show", "-p", "MainPID", "--value", "chimed"]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// What to read when a step fails: the units' status and the manager's log.
  func status() -> String {
    let units = try? systemctl(["status", "chimed.socket", "chimed.service"])
    return "\n\(units?.output ?? "")\(units?.errors ?? "")\n--- systemd --user log:\n\(Self.read(log))"
  }

  static func read(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }
}
