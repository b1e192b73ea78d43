import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// `chime doctor` in setups that are broken in ways easy to misjudge: a data directory that
/// is a file or read-only, a socket file nothing listens on, a wrong --socket while systemd
/// runs chimed, no user systemd at all, and the notification server's answer.
@Suite struct DoctorBrokenSetupTests {
  struct Run {
    var status: Int32
    var stdout: String
    var checks: [[String: Any]] {
      let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
      return object?["checks"] as? [[String: Any]] ?? []
    }
    func check(_ name: String) -> (status: String, detail: String, hint: String) {
      let found = checks.first { $0["name"] as? String == name }
      return (found?["status"] as? String ?? "", found?["detail"] as? String ?? "", found?["hint"] as? String ?? "")
    }
  }

  /// Doctor with `--json`, the given flags, and PATH limited to `bin` (fake programs) plus
  /// /bin for the shell: no systemctl, busctl or player but those a test puts there.
  func doctor(_ arguments: [String], bin: String, environment: [String: String] = [:]) throws -> Run {
    var env = ["PATH": bin, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": bin + "/no-runtime"]
    for (key, value) in environment { env[key] = value }
    let result = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["doctor", "--json"] + arguments, environment: env)
    return Run(status: result.status, stdout: result.output + result.errors)
  }

  func bin(_ dir: TemporaryDirectory) throws -> String {
    let bin = dir.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    return bin
  }

  /// A user systemd that says chimed.socket is enabled and active, listening on `listens`, and
  /// chimed.service active.
  func fakeSystemctl(in bin: String, listens: String, active: Bool = true) {
    ExecutableScript.write("""
      case "$*" in
        *show-environment*) echo HOME=/root ;;
        *is-enabled*) echo enabled ;;
        *is-active*) echo \(active ? "active" : "inactive") ;;
        *Listen*) echo "Listen=\(listens) (Stream)" ;;
        *) exit 1 ;;
      esac
      """, to: bin + "/systemctl")
  }

  @Test func aDataDirectoryThatIsAFileFails() throws {
    let dir = TemporaryDirectory()
    let file = dir.file("data")
    try "not a directory".write(toFile: file, atomically: true, encoding: .utf8)
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", file, "--config", "/dev/null"], bin: try bin(dir))
    #expect(run.status == 1)
    #expect(run.check("data-dir").status == "fail", "\(run.stdout)")
    #expect(run.check("data-dir").detail == "\(file) is not a directory", "\(run.stdout)")
    #expect(run.check("database").status == "fail", "\(run.stdout)")
    #expect(!run.check("database").hint.contains("creates it on start"), "\(run.stdout)")

    // Under a file: chimed cannot create it either.
    let under = try doctor(["--socket", dir.socketPath, "--data-dir", file + "/chime", "--config", "/dev/null"], bin: try bin(dir))
    #expect(under.check("data-dir").status == "fail", "\(under.stdout)")
    #expect(under.check("data-dir").detail.contains("Not a directory"), "\(under.stdout)")
  }

  @Test(.enabled(if: getuid() == 0, "needs root to mount a read-only tmpfs"))
  func aReadOnlyDataDirectoryFailsAndSoDoesTheDatabase() throws {
    let dir = TemporaryDirectory()
    let data = dir.file("ro")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let mounted = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", data])
    try #require(mounted.status == 0, "mount: \(mounted.errors)")
    defer { _ = try? ChildProcess.run("/bin/umount", [data]) }
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", data, "--config", "/dev/null"], bin: try bin(dir))
    #expect(run.check("data-dir").status == "fail", "\(run.stdout)")
    #expect(run.check("database").status == "fail", "\(run.stdout)")
    #expect(!run.check("database").hint.contains("creates it on start"), "\(run.stdout)")
    #expect(run.check("database").hint.contains("data-dir"), "\(run.stdout)")
    // A data directory that does not exist yet under a read-only one cannot be created.
    let below = try doctor(["--socket", dir.socketPath, "--data-dir", data + "/chime", "--config", "/dev/null"], bin: try bin(dir))
    #expect(below.check("data-dir").status == "fail", "\(below.stdout)")
    #expect(!below.check("database").hint.contains("creates it on start"), "\(below.stdout)")
  }

  /// A socket file left behind with nothing listening (a chimed killed, a chimed.socket
  /// stopped without RemoveOnStop) is stale, not ok.
  @Test func aStaleSocketIsToldFromALiveOne() throws {
    let dir = TemporaryDirectory()
    let killed = DaemonProcess(directory: dir)
    try killed.start()
    killed.kill9()
    _ = killed.waitForExit()
    try #require(FileManager.default.fileExists(atPath: dir.socketPath), "a killed chimed leaves its socket file")
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", killed.dataDirectory, "--config", "/dev/null"], bin: try bin(dir))
    #expect(run.check("socket").status == "fail", "\(run.stdout)")
    #expect(run.check("socket").detail.contains("stale, nothing listens on it"), "\(run.stdout)")
    // One hint, the socket's: the daemon check does not repeat it.
    #expect(run.check("daemon").status == "fail" && run.check("daemon").hint.isEmpty, "\(run.stdout)")

    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let live = try doctor(["--socket", dir.socketPath, "--data-dir", daemon.dataDirectory, "--config", "/dev/null"], bin: try bin(dir))
    #expect(live.check("socket").status == "ok", "\(live.stdout)")
    #expect(live.check("socket").detail.hasSuffix(", listening"), "\(live.stdout)")
  }

  /// Without a user systemd no hint sends the user to systemctl --user or journalctl.
  @Test func withoutAUserSystemdNoHintNamesIt() throws {
    let dir = TemporaryDirectory()
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: try bin(dir))
    #expect(run.check("systemd").detail == "no user systemd reachable", "\(run.stdout)")
    for check in run.checks {
      let hint = check["hint"] as? String ?? ""
      #expect(!hint.contains("systemctl --user") && !hint.contains("journalctl"), "\(check["name"] ?? ""): \(hint)")
    }
    #expect(run.check("socket").hint.contains("start it with `chimed`"), "\(run.stdout)")
  }

  /// A wrong --socket while systemd runs chimed: the hint agrees with the systemd check (it
  /// names where chimed.socket listens), and never says chimed is not running.
  @Test func aWrongSocketHintAgreesWithSystemd() throws {
    let dir = TemporaryDirectory()
    let bin = try bin(dir)
    let real = dir.file("run/chime/chimed.sock")
    fakeSystemctl(in: bin, listens: real)
    let run = try doctor(["--socket", dir.file("wrong.sock"), "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: bin)
    #expect(run.check("systemd").detail.contains("chimed.service active"), "\(run.stdout)")
    let hint = run.check("socket").hint
    #expect(!hint.contains("not running"), "\(hint)")
    #expect(hint.contains("chimed.socket listens on \(real)"), "\(hint)")
    #expect(run.check("daemon").detail.contains("not reached") && run.check("daemon").hint.isEmpty, "\(run.stdout)")
  }

  /// `systemctl --user stop chimed.socket chimed`: the unit's Listen= is still there, but
  /// nothing listens; doctor says so (not "listening on"), and the socket file is absent, with
  /// one hint and no journalctl line repeated.
  @Test func stoppedUnitsAreNotListeningAndTheAbsentSocketHasOneHint() throws {
    let dir = TemporaryDirectory()
    let bin = try bin(dir)
    fakeSystemctl(in: bin, listens: dir.socketPath, active: false)
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: bin)
    #expect(run.check("systemd").detail.contains("not listening (its path: \(dir.socketPath))"), "\(run.stdout)")
    #expect(!run.check("systemd").detail.contains("listening on"), "\(run.stdout)")
    #expect(run.check("socket").status == "fail" && run.check("socket").detail.contains("No such file"), "\(run.stdout)")
    #expect(run.check("socket").hint.contains("systemctl --user enable --now chimed.socket"), "\(run.stdout)")
    #expect(run.check("daemon").status == "fail" && run.check("daemon").hint.isEmpty, "\(run.stdout)")
    #expect(run.checks.filter { ($0["hint"] as? String ?? "").contains("journalctl") }.count <= 1, "\(run.stdout)")
  }

  /// chimed under socket activation with an invalid chimed.toml is up and answers
  /// CONFIG_INVALID: doctor says the configuration is invalid with chimed's message, gives the
  /// fix once, and never says nothing answers or that chimed refuses to start.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.socketActivate)))
  func aChimedAnsweringConfigInvalidIsToldApart() throws {
    let dir = TemporaryDirectory()
    let bin = try bin(dir)
    fakeSystemctl(in: bin, listens: dir.socketPath)
    let config = dir.file("chimed.toml")
    try "missed-grace = \"soon\"\n".write(toFile: config, atomically: true, encoding: .utf8)
    let daemon = try SpawnedProcess(DaemonProcess.socketActivate,
                                    ["-l", dir.socketPath, DaemonProcess.binDirectory + "/chimed", "--config", config],
                                    environment: SpawnedProcess.environment([:]),
                                    stdout: dir.file("chimed.log"), stderr: dir.file("chimed.log"))
    defer {
      daemon.signal(SIGTERM)
      _ = daemon.waitForExit()
    }
    try #require(pollUntil(within: 20) { UnixSocket.isAccepting(path: dir.socketPath) })
    let cause = "\(config):1: missed-grace: expected a number of seconds, got string"

    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", config], bin: bin)
    #expect(run.status == 1)
    #expect(run.check("socket").status == "ok", "\(run.stdout)")
    #expect(run.check("config").status == "fail" && run.check("config").detail.contains(cause), "\(run.stdout)")
    let daemonCheck = run.check("daemon")
    #expect(daemonCheck.status == "fail", "\(run.stdout)")
    #expect(daemonCheck.detail.contains("configuration is invalid") && daemonCheck.detail.contains("CONFIG_INVALID")
      && daemonCheck.detail.contains(cause), "\(run.stdout)")
    #expect(!run.stdout.contains("nothing answers") && !run.stdout.contains("refuses to start"), "\(run.stdout)")
    let fixes = run.checks.compactMap { $0["hint"] as? String }.filter { $0.contains("fix the file") }
    #expect(fixes == ["fix the file, then `systemctl --user restart chimed` (`chimed --print-config` checks it)"], "\(run.stdout)")
    #expect(!run.checks.contains { ($0["hint"] as? String ?? "").contains("journalctl") }, "\(run.stdout)")

    // Doctor reading another (valid) file: the daemon check gives the fix itself.
    let other = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: bin)
    #expect(other.check("config").status == "ok", "\(other.stdout)")
    #expect(other.check("daemon").hint.contains("fix the file"), "\(other.stdout)")
  }

  /// The notification server's name, vendor and versions, not busctl's text with its
  /// signature; no detail or hint ends in a newline in --json.
  @Test func theNotificationServerIsNamedWithoutTheSignature() throws {
    let dir = TemporaryDirectory()
    let bin = try bin(dir)
    ExecutableScript.write("""
      case "$*" in
        *--json=short*) echo '{"type":"ssss","data":["Notification Daemon","GNOME","3.20","1.2"]}' ;;
        *) echo 'ssss "Notification Daemon" "GNOME" "3.20" "1.2"' ;;
      esac
      """, to: bin + "/busctl")
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: bin,
                         environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + dir.file("bus")])
    #expect(run.check("session-bus").status == "ok", "\(run.stdout)")
    #expect(run.check("session-bus").detail == "notification server: Notification Daemon 3.20 (GNOME), spec 1.2", "\(run.stdout)")

    ExecutableScript.write("echo 'Call failed: The name org.freedesktop.Notifications was not provided by any .service files'\nexit 1",
                           to: bin + "/busctl")
    let none = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"], bin: bin,
                          environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + dir.file("bus")])
    #expect(none.check("session-bus").status == "warn", "\(none.stdout)")
    for check in none.checks {
      for key in ["detail", "hint"] {
        let text = check[key] as? String ?? ""
        #expect(!text.hasSuffix("\n") && !text.contains("\n"), "\(check["name"] ?? "") \(key): \(text.debugDescription)")
      }
    }
  }
}
