import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// The real `chime` across a chimed restart and under Do Not Disturb: `chime watch` goes on
/// after a restart from its cursor, and `chime delivered` notes a delivery kept quiet.
@Suite(.testTimeLimit) struct DaemonRestartCLITests {
  let app = "org.example.watch"

  func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  /// chimed stops (SIGTERM: the stream ends with SHUTTING_DOWN) and another starts on the same
  /// socket and store: the watcher says so, reconnects and prints each event once.
  @Test func watchReconnectsWithItsCursorWhenChimedRestarts() throws {
    let dir = TemporaryDirectory()
    let arguments = ["--presenter", "none", "--sound-player", "none"]
    let first = DaemonProcess(directory: dir, arguments: arguments)
    try first.start()
    let socket = first.socketPath
    #expect(try ChimeCLI.run(["add", "one", "--title", "One", "--in", "1h"], socket: socket, app: app).status == 0)

    let out = dir.file("watch.out"), err = dir.file("watch.err")
    let watch = try SpawnedProcess(DaemonProcess.binDirectory + "/chime", ["watch", "--after", "0", "--count", "3"],
                                   environment: SpawnedProcess.environment(["CHIME_SOCKET": socket, "CHIME_APP": app]),
                                   stdout: out, stderr: err)
    defer { if watch.isRunning { watch.signal(SIGTERM) } }
    try #require(pollUntil(within: 20) { read(err).contains("watching \(app) live") }, "\(read(err))")
    #expect(first.terminate() == 0)
    try #require(pollUntil(within: 20) { read(err).contains("reconnecting to chimed, resuming after #") }, "\(read(err))")
    #expect(watch.isRunning, "chime watch ended with chimed: \(read(err))")

    let second = DaemonProcess(directory: dir, arguments: arguments)
    try second.start()
    defer { second.terminate() }
    for name in ["two", "three"] {
      #expect(try ChimeCLI.run(["add", name, "--title", name, "--in", "1h"], socket: socket, app: app).status == 0)
    }
    #expect(watch.waitForExit(seconds: 30) == 0, "\(read(err))")
    let lines = read(out).split(separator: "\n")
    #expect(lines.count == 3, "\(read(out))")
    for (line, name) in zip(lines, ["one", "two", "three"]) { #expect(line.contains(name), "\(read(out))") }
  }

  /// A delivery Do Not Disturb kept quiet says so in `chime delivered`'s NOTE column.
  @Test func deliveredNotesADeliveryKeptQuietByDoNotDisturb() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--sound-player", "none"])
    try daemon.start()
    defer { daemon.terminate() }
    let socket = daemon.socketPath
    #expect(try ChimeCLI.run(["add", "loud", "--title", "Loud"], socket: socket, app: app).status == 0)
    #expect(try ChimeCLI.run(["dnd", "on", "--until", "1h"], socket: socket, app: app).status == 0)
    #expect(try ChimeCLI.run(["add", "hushed", "--title", "Hushed"], socket: socket, app: app).status == 0)
    let listed = try ChimeCLI.run(["delivered", "--width", "0"], socket: socket, app: app)
    let rows = listed.stdout.split(separator: "\n")
    #expect(rows.first { $0.hasPrefix("hushed") }?.contains("quiet (do not disturb)") == true, "\(listed.stdout)")
    #expect(rows.first { $0.hasPrefix("loud") }?.contains("quiet") == false, "\(listed.stdout)")
  }
}
