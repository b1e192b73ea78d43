import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing
@testable import ChimeStore

/// `chime doctor` against a healthy daemon, a dead one and a read-only data directory.
@Suite(.testTimeLimit) struct DoctorTests {
  struct Run {
    var status: Int32
    var stdout: String
    var object: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] }
  }

  func status(_ run: Run, _ name: String) -> String? {
    (run.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == name }?["status"] as? String
  }

  func doctor(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let result = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["doctor", "--json"] + arguments,
                                      environment: environment)
    return Run(status: result.status, stdout: result.output + result.errors)
  }

  @Test func aHealthyDaemonPasses() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    _ = FileManager.default.createFile(atPath: dir.file("empty.toml"), contents: Data())
    defer { daemon.terminate() }
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", daemon.dataDirectory, "--config", dir.file("empty.toml")])
    #expect(run.status == 0, "\(run.stdout)")
    #expect(run.object?["ok"] as? Bool == true)
    for name in ["config", "socket", "daemon", "version", "data-dir", "database"] {
      #expect(status(run, name) == "ok", "\(name): \(run.stdout)")
    }
    // Every check is there, each ok, warn or fail.
    let names = (run.object?["checks"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    #expect(names == ["config", "socket", "daemon", "version", "data-dir", "database", "session-bus", "dbus-api", "sound", "systemd"])
    let text = try ChildProcess.run(DaemonProcess.binDirectory + "/chime",
                                    ["doctor", "--socket", dir.socketPath, "--data-dir", daemon.dataDirectory, "--config", dir.file("empty.toml")])
    #expect(text.output.contains("ok   daemon: pid \(daemon.processIdentifier), up "), "\(text.output)")
    let version = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["--version"]).output
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(text.output.contains("ok   version: chime and chimed \(version)\n"), "\(text.output)")
    #expect(text.output.contains("integrity ok"), "\(text.output)")
  }

  /// The configuration doctor was given names another data directory than the one chimed serves:
  /// said, because every check after it looks at the wrong store.
  @Test func aDaemonServingAnotherDataDirectoryIsNamed() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("elsewhere"), "--config", "/dev/null"])
    #expect(status(run, "daemon-data-dir") == "warn", "\(run.stdout)")
    let check = (run.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "daemon-data-dir" }
    #expect((check?["detail"] as? String)?.contains("chimed serves \(daemon.dataDirectory)") == true, "\(run.stdout)")
  }

  @Test func aDeadDaemonFailsWithAHint() throws {
    let dir = TemporaryDirectory()
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", dir.file("data"), "--config", "/dev/null"])
    #expect(run.status == 1)
    #expect(run.object?["ok"] as? Bool == false)
    #expect(status(run, "socket") == "fail")
    #expect(status(run, "daemon") == "fail")
    let socket = (run.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "socket" }
    // How to start it: `chimed`, and through systemd only where a user systemd runs.
    #expect((socket?["hint"] as? String)?.contains("`chimed`") == true, "\(run.stdout)")
  }

  @Test func anInvalidConfigFileFails() throws {
    let dir = TemporaryDirectory()
    try "missed-grace = \"x\"\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let run = try doctor(["--socket", dir.socketPath, "--config", dir.file("chimed.toml")])
    #expect(run.status == 1)
    #expect(status(run, "config") == "fail")
    #expect(run.stdout.contains("chimed.toml:1: missed-grace"), "\(run.stdout)")
  }

  /// A chime.db SQLite cannot read fails the database check with SQLite's words (doctor reads
  /// the file through the SQLite library it loads itself, without a daemon).
  @Test func aDamagedDatabaseFails() throws {
    let dir = TemporaryDirectory()
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    try String(repeating: "not a database ", count: 100).write(toFile: data + "/chime.db", atomically: true, encoding: .utf8)
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", data, "--config", "/dev/null"])
    #expect(run.status == 1)
    #expect(status(run, "database") == "fail", "\(run.stdout)")
    let check = (run.object?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == "database" }
    #expect((check?["detail"] as? String)?.contains("SQLite error 26: file is not a database") == true, "\(run.stdout)")
  }

  /// A store made before 2 KiB pages works, and doctor says how to move it to them; after
  /// `chimed --compact-store` the check is ok.
  @Test func aStoreWithFourKiBPagesGetsTheCompactHint() throws {
    let dir = TemporaryDirectory()
    let data = dir.file("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let old = try DatabaseQueue(path: data + "/chime.db")
    try old.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA page_size = 4096")
      try db.execute(sql: "CREATE TABLE made_before (x)")
    }
    old.close()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()  // migrates it, keeping its pages
    #expect(daemon.terminate() == 0)

    let before = try doctor(["--socket", dir.socketPath, "--data-dir", data, "--config", "/dev/null"])
    #expect(status(before, "database") == "warn", "\(before.stdout)")
    #expect(before.stdout.contains("4096-byte pages (a new store has 2048)"), "\(before.stdout)")
    #expect(before.stdout.contains("chimed --compact-store"), "\(before.stdout)")

    let compacted = try ChildProcess.run(DaemonProcess.binDirectory + "/chimed", ["--data-dir", data, "--compact-store"])
    #expect(compacted.status == 0, "\(compacted.errors)")
    let after = try doctor(["--socket", dir.socketPath, "--data-dir", data, "--config", "/dev/null"])
    #expect(status(after, "database") == "ok", "\(after.stdout)")
  }

  @Test(.enabled(if: getuid() == 0, "needs root to mount a read-only tmpfs"))
  func aReadOnlyDataDirectoryFails() throws {
    let dir = TemporaryDirectory()
    let data = dir.file("ro")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    let mounted = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", data])
    try #require(mounted.status == 0, "mount: \(mounted.errors)")
    defer { _ = try? ChildProcess.run("/bin/umount", [data]) }
    let run = try doctor(["--socket", dir.socketPath, "--data-dir", data, "--config", "/dev/null"])
    #expect(run.status == 1)
    #expect(status(run, "data-dir") == "fail", "\(run.stdout)")
    #expect(run.stdout.contains("read-only") || run.stdout.contains("not writable"), "\(run.stdout)")
  }
}
