import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// `chime add --ring` through the real chimed and a fake sound player (a script that records
/// its pid and holds on like a long sound): the ring is kept and shown back, a delivered ring
/// plays and shows as ringing, removing it stops the player, and bad rings are refused.
@Suite(.testTimeLimit) struct RingCLITests {
  let app = "org.example.alarm"

  @Test func addPendingDeliveredAndRemoveARingingAlarm() throws {
    let dir = TemporaryDirectory()
    let player = dir.file("player")
    ExecutableScript.write("echo $$ >> '\(dir.file("plays"))'\nexec sleep 30", to: player)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--sound-player", player])
    try daemon.start()
    defer { daemon.terminate() }
    func chime(_ arguments: [String]) throws -> ChimeCLI.Run { try ChimeCLI.run(arguments, socket: daemon.socketPath, app: app) }
    var plays: [Int32] {
      ((try? String(contentsOfFile: dir.file("plays"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    let added = try #require(try chime(["add", "wake", "--title", "Wake up", "--in", "1h", "--ring", "5m", "--json"]).object)
    let content = try #require((added["request"] as? [String: Any] ?? added)["content"] as? [String: Any], "\(added)")
    #expect((content["ring"] as? [String: Any])?["seconds"] as? Int == 300, "\(content)")
    #expect((content["sound"] as? [String: Any])?["kind"] as? String == "default", "\(content)")
    let pending = try chime(["pending"])
    #expect(pending.stdout.contains("rings 5m"), "\(pending.stdout)")

    #expect(try chime(["add", "now", "--title", "Now", "--ring", "1m"]).status == 0)
    try #require(pollUntil(within: 10) { plays.count == 1 }, "\(daemon.log)")
    let pid = plays[0]
    let delivered = try #require(try chime(["delivered", "--json"]).objects?.first, "\(daemon.log)")
    #expect(delivered["ringing"] as? Bool == true, "\(delivered)")
    #expect(delivered["ring_ended"] == nil)
    #expect(try chime(["delivered"]).stdout.contains("ringing"))

    #expect(try chime(["delivered", "--remove", "now"]).status == 0)
    #expect(pollUntil(within: 10) { kill(pid, 0) != 0 }, "the player \(pid) still runs after its ring was removed")

    for (ring, more) in [("2s", [String]()), ("31m", []), ("1m", ["--sound", "none"]), ("2m", ["--level", "passive"])] {
      let refused = try chime(["add", "bad", "--title", "Bad", "--ring", ring] + more)
      #expect(refused.status != 0 && refused.stderr.contains("INVALID_RING"), "\(ring) \(more): \(refused.stderr)")
    }
    let passive = try chime(["add", "bad", "--title", "Bad", "--ring", "2m", "--level", "passive", "--in", "1h"])
    #expect(passive.stderr.contains("a passive notification never rings"), "\(passive.stderr)")
    let notADuration = try chime(["add", "bad", "--title", "Bad", "--ring", "soon"])
    #expect(notADuration.status != 0 && notADuration.stderr.contains("not a duration"), "\(notADuration.stderr)")
  }

  /// Through libcanberra (its ALSA driver on a null device, no player on PATH): each play of the
  /// ring waits for the sound's end, then the next starts; removing the notification ends it.
  @Test func libcanberraRingsAgainWhenEachPlayEnds() throws {
    let dir = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
    try "pcm.!default {\n  type null\n}\n".write(toFile: dir.file("alsa.conf"), atomically: true, encoding: .utf8)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--log-level", "debug"],
                               environment: ["PATH": dir.file("bin"), "CA_DRIVER": "alsa", "ALSA_CONFIG_PATH": dir.file("alsa.conf")])
    try daemon.start()
    defer { daemon.terminate() }
    try #require(pollUntil(within: 10) { daemon.log.contains("sounds play through libcanberra") }, "\(daemon.log)")
    func played() -> Int { daemon.log.components(separatedBy: "backend=libcanberra id=now [ChimeServer] sound played").count - 1 }
    #expect(try ChimeCLI.run(["add", "now", "--title", "Now", "--ring", "1m"], socket: daemon.socketPath, app: app).status == 0)
    // The default sound is about a second long; a null device plays it at once, and the ring's
    // least gap (a second from one start to the next) paces the plays.
    try #require(pollUntil(within: 10) { played() >= 2 }, "\(daemon.log)")
    #expect(try ChimeCLI.run(["delivered", "--remove", "now"], socket: daemon.socketPath, app: app).status == 0)
    try #require(pollUntil(within: 10) { daemon.log.contains("id=now why=removed [ChimeServer] ring ended") }, "\(daemon.log)")
  }

  /// Each libcanberra play of a ring waits for the sound's end on a pool thread; those waits go
  /// one at a time (the sound lane), so alarms ringing together never hold the pool threads that
  /// commits and reads need. Here every play blocks (ALSA writes into a FIFO nobody reads): with
  /// four alarms ringing, listing the delivered notifications must still answer.
  @Test func ringingAlarmsLeaveThePoolToCommitsAndReads() throws {
    let dir = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
    try #require(mkfifo(dir.file("fifo"), 0o600) == 0)
    try """
      pcm.!default {
        type file
        slave { pcm { type null } }
        file "\(dir.file("fifo"))"
        format "raw"
      }

      """.write(toFile: dir.file("alsa.conf"), atomically: true, encoding: .utf8)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "none", "--log-level", "debug"],
                               environment: ["PATH": dir.file("bin"), "CA_DRIVER": "alsa", "ALSA_CONFIG_PATH": dir.file("alsa.conf")])
    try daemon.start()
    // Its plays never end: killed, not asked to drain.
    defer { daemon.kill9() }
    try #require(pollUntil(within: 10) { daemon.log.contains("sounds play through libcanberra") }, "\(daemon.log)")
    for n in 1...4 {
      let added = try ChimeCLI.run(["add", "alarm\(n)", "--title", "Wake", "--ring", "5m"], socket: daemon.socketPath, app: app, timeout: 10)
      try #require(added.status == 0, "alarm\(n): \(added.stderr)\n\(daemon.log)")
    }
    try #require(pollUntil(within: 10) { daemon.log.contains("id=alarm4 until=") }, "\(daemon.log)")
    let listed = try ChimeCLI.run(["delivered"], socket: daemon.socketPath, app: app, timeout: 10)
    #expect(listed.status == 0 && listed.stdout.contains("alarm4"), "status \(listed.status): \(listed.stderr)\n\(daemon.log)")
  }
}
