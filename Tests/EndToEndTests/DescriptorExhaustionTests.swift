import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// chimed with few descriptors under a flood of connections: the accept loop does not spin,
/// clients already connected keep being served, and new ones are served once others leave.
@Suite(.testTimeLimit, .serialized) struct DescriptorExhaustionTests {
  /// User plus system CPU time of `pid`, in seconds (/proc/PID/stat, fields 14 and 15).
  func cpuSeconds(_ pid: pid_t) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  // Before UnixListener accepted for itself, this found libuv's EMFILE recovery losing its
  // reserve descriptor to a work-pool thread and then spinning on accept with the loop held.
  @Test
  func aConnectionFloodPastTheDescriptorLimitNeitherSpinsNorStarvesClients() async throws {
    let dir = TemporaryDirectory()
    let chimed = DaemonProcess.binDirectory + "/chimed"
    let out = dir.file("chimed.out")
    let daemon = try SpawnedProcess("/usr/bin/prlimit", ["--nofile=64:64", chimed, "--socket", dir.socketPath,
                                                         "--data-dir", dir.file("data"), "--presenter", "none", "--sound-player", "none"],
                                    environment: SpawnedProcess.environment(["CHIME_SOCKET": nil]), stdout: out, stderr: dir.file("chimed.log"))
    defer { daemon.signal(SIGKILL); _ = daemon.waitForExit() }
    try #require(pollUntil(within: 30) { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("listening") },
                 "\((try? String(contentsOfFile: dir.file("chimed.log"), encoding: .utf8)) ?? "")")
    let early = try ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.early", timeout: 30)
    _ = try await early.add(NotificationRequest(identifier: "kept", content: NotificationContent(title: "Kept"),
                                                trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600))))

    // Far more connections than chimed has descriptors for.
    var flood: [RawSocket] = []
    for _ in 0..<150 { if let socket = try? RawSocket(path: dir.socketPath) { flood.append(socket) } }
    #expect(flood.count > 64)
    let before = cpuSeconds(daemon.pid)
    usleep(1_500_000)  // measuring CPU over a span, not waiting for chimed to do anything
    let used = cpuSeconds(daemon.pid) - before
    #expect(used < 0.5, "chimed used \(used) s of CPU in 1.5 s holding a flood: the accept loop spins")
    #expect(daemon.isRunning)

    // The client connected before the flood is still served.
    #expect(try await early.allPending().map(\.request.identifier) == ["kept"])

    // Once the flood leaves, new clients are served again.
    flood.removeAll()  // closes them
    var served = false
    for _ in 0..<100 where !served {
      if let late = try? ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.late", timeout: 10),
         (try? await late.allPending()) != nil {
        served = true
      } else {
        usleep(50_000)
      }
    }
    #expect(served, "a new client is served once the flood has gone")
  }
}
