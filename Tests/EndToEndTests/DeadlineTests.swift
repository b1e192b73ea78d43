import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// A peer that accepts and never answers (a hung daemon, another program holding the socket)
/// must not hang a client: each call carries a deadline, enforced on the client's side too.
@Suite(.testTimeLimit) struct DeadlineTests {
  /// A socket that is listening (so connects succeed) and never accepts or answers.
  func silentSocket(_ dir: TemporaryDirectory) throws -> FileDescriptor {
    try UnixSocket.listen(path: dir.socketPath)
  }

  @Test func aLibraryCallToASilentPeerEndsAtItsDeadline() async throws {
    let dir = TemporaryDirectory()
    let listener = try silentSocket(dir)
    defer { listener.close() }
    let client = try ChimeClient.connect(socketPath: dir.socketPath, app: "org.example.deadline", timeout: 0.2)
    let started = ContinuousClock.now
    let error = await caughtError { _ = try await client.allPending() }
    #expect(error?.reason == Reason.deadlineExceeded.name)
    #expect(error?.code == .deadlineExceeded)
    #expect(error?.message.contains("no answer to GetPending from \(dir.socketPath) within") == true, "\(String(describing: error))")
    // It ends rather than hangs; how soon the task resumes is up to the test run's load (on two
    // CPUs, tests blocking cooperative threads held it past a minute), so no bound is asserted.
    _ = started
  }

  @Test func theCLIGivesUpWithDeadlineExceeded() throws {
    let dir = TemporaryDirectory()
    let listener = try silentSocket(dir)
    defer { listener.close() }
    let run = try ChimeCLI.run(["pending", "--timeout", "300ms"], socket: dir.socketPath, timeout: 20)
    #expect(run.status == 1)
    #expect(run.stderr.contains("DEADLINE_EXCEEDED"), "\(run.stderr)")
    #expect(run.stderr.contains("no answer to GetPending"), "\(run.stderr)")
  }

  @Test func aBadTimeoutIsRefusedBeforeConnecting() throws {
    let run = try ChimeCLI.run(["pending", "--timeout", "soon"], socket: "/nonexistent/chimed.sock", timeout: 20)
    #expect(run.status != 0)
    #expect(run.stderr.contains("--timeout takes a duration"), "\(run.stderr)")
  }

  @Test func aCallWithinItsDeadlineIsAnswered() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: "org.example.deadline", timeout: 10)
    #expect(try await client.allPending().isEmpty)
    #expect(daemon.terminate() == 0)
  }
}
