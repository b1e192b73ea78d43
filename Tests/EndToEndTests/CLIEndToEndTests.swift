import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The `chime` CLI against the real daemon, as a user runs it.
@Suite(.testTimeLimit, .serialized) struct CLIEndToEndTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func chime(_ arguments: [String], socket: String, app: String = "org.example.cli") throws -> Run {
    let run = try ChimeCLI.run(arguments, socket: socket, app: app)
    return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
  }

  @Test func tourWorksAsWritten() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let socket = daemon.socketPath

    let add = try chime(["add", "tea", "--title", "Tea", "--body", "Steeped", "--in", "10s"], socket: socket)
    #expect(add.status == 0, "\(add.stderr)")
    #expect(add.stdout.contains("scheduled tea"))
    #expect(try chime(["add", "stretch", "--title", "Stretch", "--in", "1h", "--repeats"], socket: socket).status == 0)

    let table = try chime(["pending"], socket: socket)
    #expect(table.status == 0)
    #expect(table.stdout.contains("ID"))
    #expect(table.stdout.contains("tea"))
    #expect(table.stdout.contains("every 1h"))
    #expect(table.stdout.contains("in 9s") || table.stdout.contains("in 10s"))

    let json = try chime(["pending", "--json"], socket: socket)
    let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(Set(list.compactMap { $0["id"] as? String }) == ["tea", "stretch"])
    #expect(list.allSatisfy { ($0["next_fire"] as? String)?.hasSuffix("Z") == true })

    // The app option scopes everything.
    let other = try chime(["pending", "--json", "--app", "org.example.other"], socket: socket)
    let otherList = try JSONSerialization.jsonObject(with: Data(other.stdout.utf8)) as? [Any]
    #expect(otherList?.isEmpty == true)

    let remove = try chime(["remove", "tea"], socket: socket)
    #expect(remove.status == 0)
    #expect(remove.stdout.contains("removed 1"))
    #expect(try chime(["remove", "--all", "--json"], socket: socket).stdout.contains("stretch"))

    #expect(try chime(["add", "now", "--title", "Now"], socket: socket).stdout.contains("delivered now"))
    let delivered = try chime(["delivered"], socket: socket)
    #expect(delivered.stdout.contains("now"))
    #expect(try chime(["delivered", "--remove-all"], socket: socket).stdout.contains("removed 1"))
    #expect(daemon.terminate() == 0)
  }

  @Test func failuresExitNonZeroWithTheReason() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let bad = try chime(["add", "x", "--title", "X", "--in", "30s", "--repeats"], socket: daemon.socketPath)
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("INVALID_INTERVAL"))
    let empty = try chime(["add", "x"], socket: daemon.socketPath)
    #expect(empty.status != 0)
    #expect(empty.stderr.contains("NOTIFICATION_INVALID_NO_CONTENT"))
    daemon.terminate()
    let down = try chime(["pending"], socket: daemon.socketPath)
    #expect(down.status == 69)
    #expect(down.stderr.contains("UNAVAILABLE"))
  }
}
