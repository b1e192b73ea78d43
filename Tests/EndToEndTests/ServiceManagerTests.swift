import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// chimed under a service manager: socket activation, readiness and stopping through
/// libsystemd, with systemd's own activator and a test listener standing in for systemd.
@Suite(.testTimeLimit, .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: DaemonProcess.socketActivate),
                "needs systemd-socket-activate (Debian's systemd package; make deps installs it)"))
struct ServiceManagerTests {
  @Test func aSocketActivatedDaemonServesTheInheritedSocketAndReportsReadyAndStopping() async throws {
    let dir = TemporaryDirectory()
    let notify = try NotifyListener(directory: dir)
    // systemd-socket-activate owns the socket and execs chimed (same pid) on the first
    // connection, with the socket in LISTEN_FDS and NOTIFY_SOCKET passed on.
    let daemon = try SpawnedProcess(DaemonProcess.socketActivate,
                                    ["-l", dir.socketPath, "-E", "NOTIFY_SOCKET", DaemonProcess.binDirectory + "/chimed",
                                     "--data-dir", dir.file("data"), "--log-level", "debug"],
                                    environment: SpawnedProcess.environment(["NOTIFY_SOCKET": notify.path]),
                                    stdout: dir.file("chimed.log"), stderr: dir.file("chimed.log"))
    // The file appears at bind(), before listen(): wait until a connection is taken (that
    // first connection already starts chimed, which accepts it and sees it close).
    try #require(pollUntil(within: 20) { UnixSocket.isAccepting(path: dir.socketPath) })

    // A connection is served by chimed on the socket the activator made.
    let client = try ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.activated")
    let added = try await client.add(NotificationRequest(identifier: "a", content: NotificationContent(title: "hi"),
                                                         trigger: .timeInterval(TimeIntervalTrigger(seconds: 600))))
    #expect(added.pending.request.identifier == "a")
    #expect(notify.waitFor("READY=1"), "received: \(notify.received)")
    #expect(notify.received.contains { $0.contains("STATUS=serving on \(dir.socketPath)") })
    let log = (try? String(contentsOfFile: dir.file("chimed.log"), encoding: .utf8)) ?? ""
    #expect(log.contains("socket=\(dir.socketPath)"), "\(log)")

    daemon.signal(SIGTERM)
    #expect(notify.waitFor("STOPPING=1"), "received: \(notify.received)")
    #expect(daemon.waitForExit() == 0)
    // The socket file is the service manager's: chimed leaves it where it was.
    #expect(FileManager.default.fileExists(atPath: dir.socketPath))
    _ = client
  }

  /// An invalid chimed.toml under socket activation: chimed stays up on the socket it was handed
  /// and answers every call with FAILED_PRECONDITION CONFIG_INVALID naming the file, line and
  /// key, rather than exiting and leaving each client a reset connection (and systemd, after a
  /// few activations, a socket in start-limit-hit). It opens no store; SIGHUP stops it.
  @Test func anInvalidConfigurationIsAnsweredOnEveryCallInsteadOfAResetConnection() async throws {
    let dir = TemporaryDirectory()
    try "log-level = \"debug\"\nmissed-grace = \"soon\"\n".write(toFile: dir.file("chimed.toml"), atomically: true, encoding: .utf8)
    let notify = try NotifyListener(directory: dir)
    let daemon = try SpawnedProcess(DaemonProcess.socketActivate,
                                    ["-l", dir.socketPath, "-E", "NOTIFY_SOCKET", DaemonProcess.binDirectory + "/chimed",
                                     "--config", dir.file("chimed.toml"), "--data-dir", dir.file("data")],
                                    environment: SpawnedProcess.environment(["NOTIFY_SOCKET": notify.path]),
                                    stdout: dir.file("chimed.log"), stderr: dir.file("chimed.log"))
    try #require(pollUntil(within: 20) { UnixSocket.isAccepting(path: dir.socketPath) })
    let cause = "\(dir.file("chimed.toml")):2: missed-grace: expected a number of seconds, got string"

    // The CLI's first call reads the cause.
    let pending = try ChimeCLI.run(["pending"], socket: dir.socketPath, app: "org.example.config")
    #expect(pending.status != 0)
    #expect(pending.stderr.contains("FAILED_PRECONDITION CONFIG_INVALID: "), "\(pending.stderr)")
    #expect(pending.stderr.contains(cause), "\(pending.stderr)")

    // So does every call of a client, each on the same connection.
    let client = try ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.config")
    for identifier in ["a", "b"] {
      do {
        _ = try await client.add(NotificationRequest(identifier: identifier, content: NotificationContent(title: "hi"),
                                                     trigger: .timeInterval(TimeIntervalTrigger(seconds: 600))))
        Issue.record("an add was accepted with an invalid configuration")
      } catch {
        #expect(error.code == .failedPrecondition && error.has(.configInvalid) && error.message.contains(cause), "\(error)")
      }
    }
    // Ready for systemd (no start timeout), with the cause in `systemctl status`; nothing else ran.
    #expect(notify.waitFor("READY=1"), "received: \(notify.received)")
    #expect(notify.received.contains { $0.contains("STATUS=configuration invalid") && $0.contains(cause) }, "\(notify.received)")
    #expect(!FileManager.default.fileExists(atPath: dir.file("data")))
    #expect(daemon.isRunning)

    // SIGHUP stops it, so the next connection starts a chimed that reads the file again.
    daemon.signal(SIGHUP)
    #expect(daemon.waitForExit() == 0)
    let log = (try? String(contentsOfFile: dir.file("chimed.log"), encoding: .utf8)) ?? ""
    #expect(log.contains(cause), "\(log)")
  }

  @Test func twoInheritedSocketsAreRefusedNotGuessedBetween() throws {
    let dir = TemporaryDirectory()
    // LISTEN_PID must be chimed's own pid: a shell sets it to its $$ and execs chimed with two
    // open descriptors where systemd would pass two sockets.
    let chimed = DaemonProcess.binDirectory + "/chimed"
    let result = try ChildProcess.run("/bin/sh", ["-c", "exec 3</dev/null 4</dev/null; LISTEN_PID=$$ LISTEN_FDS=2 exec \"$0\" --data-dir \"$1\"",
                                                  chimed, dir.file("data")])
    #expect(result.status == 1)
    #expect(result.errors.contains("systemd passed 2 sockets"), "\(result.errors)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
  func theUnitsPassSystemdAnalyzeVerify() throws {
    // verify checks ExecStart's binary exists: point the units at the built chimed.
    let dir = TemporaryDirectory()
    let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("deploy")
    for unit in ["chimed.service", "chimed.socket"] {
      let text = try String(contentsOf: deploy.appendingPathComponent(unit), encoding: .utf8)
        .replacingOccurrences(of: "%h/.local/bin/chimed", with: DaemonProcess.binDirectory + "/chimed")
      try text.write(toFile: dir.file(unit), atomically: true, encoding: .utf8)
    }
    let result = try ChildProcess.run("/usr/bin/systemd-analyze", ["verify", "--user", dir.file("chimed.socket"), dir.file("chimed.service")],
                                      environment: ["XDG_RUNTIME_DIR": ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? dir.path])
    #expect(result.status == 0, "\(result.output)\(result.errors)")
  }
}
