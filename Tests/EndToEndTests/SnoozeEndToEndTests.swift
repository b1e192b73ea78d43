import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `chime snooze` through the real chimed: a category's snooze durations, the call and its
/// refusals in the `STATUS REASON: message` form, `pending` and `watch` showing it, a snooze
/// button answered with `chime respond --snooze`, a restart, removal, and the return (chimed
/// started again with its clock past the snooze) shown by `chime delivered`.
@Suite(.testTimeLimit, .serialized) struct SnoozeEndToEndTests {
  let app = "org.example.alarm"

  func chime(_ arguments: [String], socket: String) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: app)
  }

  @Test func snoozeListRespondRestartRemoveAndReturn() throws {
    let dir = TemporaryDirectory()
    var daemon = DaemonProcess(directory: dir, arguments: [])
    try daemon.start()
    var socket = daemon.socketPath

    let file = dir.file("categories.json")
    try #"[{"identifier": "alarm", "actions": [{"identifier": "stop", "title": "Stop"}], "snooze": ["5m", "1h"]}]"#
      .write(toFile: file, atomically: true, encoding: .utf8)
    let set = try chime(["categories", "set", file], socket: socket)
    #expect(set.status == 0, "\(set.stderr)")
    let listed = try #require(try chime(["categories", "list", "--json"], socket: socket).objects)
    #expect(listed.first?["snooze"] as? [String] == ["5m", "1h"], "\(listed)")
    let table = try chime(["categories", "list"], socket: socket).stdout
    #expect(table.contains("Snooze 5 min") && table.contains("Snooze 1 h"), "\(table)")
    let bad = dir.file("bad.json")
    try #"[{"identifier": "alarm", "snooze": ["30s"]}]"#.write(toFile: bad, atomically: true, encoding: .utf8)
    let refusedSet = try chime(["categories", "set", bad], socket: socket)
    #expect(refusedSet.status == 1 && refusedSet.stderr.contains("INVALID_ARGUMENT INVALID_SNOOZE_DURATION:"), "\(refusedSet.stderr)")

    for id in ["wake", "nap"] {
      #expect(try chime(["add", id, "--title", id.capitalized, "--category", "alarm"], socket: socket).status == 0)
    }
    let snoozed = try chime(["snooze", "wake", "10m"], socket: socket)
    #expect(snoozed.status == 0 && snoozed.stdout.hasPrefix("snoozed wake until "), "\(snoozed.stdout) \(snoozed.stderr)")
    let again = try chime(["snooze", "wake", "10m"], socket: socket)
    #expect(again.status == 1 && again.stderr.contains("NOT_FOUND NOTIFICATION_NOT_DELIVERED:"), "\(again.stderr)")
    let short = try chime(["snooze", "nap", "30s"], socket: socket)
    #expect(short.status == 1 && short.stderr.contains("INVALID_ARGUMENT INVALID_SNOOZE_DURATION:"), "\(short.stderr)")
    let json = try #require(try chime(["snooze", "nap", "1w", "--json"], socket: socket).object)
    #expect(json["snoozed"] as? Bool == true && json["snooze_count"] as? Int == 1 && json["id"] as? String == "nap", "\(json)")

    let pending = try chime(["pending"], socket: socket)
    #expect(pending.stdout.contains("snoozed (1)"), "\(pending.stdout)")
    let pendingJSON = try #require(try chime(["pending", "--json"], socket: socket).objects)
    #expect(pendingJSON.map { $0["id"] as? String } == ["wake", "nap"])
    #expect(pendingJSON.allSatisfy { $0["snoozed"] as? Bool == true })
    #expect(try chime(["delivered", "--json"], socket: socket).objects?.isEmpty == true)

    // The events, replayed: each delivery, then each snooze saying when it comes back.
    let watch = try chime(["watch", "--after", "0", "--count", "4"], socket: socket)
    let lines = watch.stdout.split(separator: "\n")
    #expect(lines.count == 4 && lines[2].contains("snoozed  wake") && lines[2].contains("until "), "\(watch.stdout)")

    // A snooze button, answered as the desktop would.
    #expect(try chime(["remove", "nap"], socket: socket).status == 0)
    #expect(try chime(["add", "nap", "--title", "Nap", "--category", "alarm"], socket: socket).status == 0)
    let notOffered = try chime(["respond", "nap", "--snooze", "10m"], socket: socket)
    #expect(notOffered.status == 1 && notOffered.stderr.contains("SNOOZE_NOT_OFFERED"), "\(notOffered.stderr)")
    let button = try chime(["respond", "nap", "--snooze", "5m"], socket: socket)
    #expect(button.status == 0 && button.stdout.contains("chime.snooze"), "\(button.stdout) \(button.stderr)")
    // It says when the notification comes back.
    #expect(button.stdout.contains("; snoozed until ") && button.stdout.contains("(in "), "\(button.stdout)")

    // Kept across a restart; removal cancels one.
    #expect(daemon.terminate() == 0)
    daemon = DaemonProcess(directory: dir, arguments: [])
    try daemon.start()
    socket = daemon.socketPath
    #expect(try chime(["pending", "--json"], socket: socket).objects?.compactMap { $0["id"] as? String }.sorted() == ["nap", "wake"])
    let removed = try chime(["remove", "nap"], socket: socket)
    #expect(removed.status == 0 && removed.stdout.contains("nap"), "\(removed.stdout) \(removed.stderr)")

    // chimed's clock 11 minutes on: the snooze of wake is due, and it comes back at start
    // (late, so marked missed). The CLI sends no deadline: chimed's clock is ahead of its own.
    #expect(daemon.terminate() == 0)
    daemon = DaemonProcess(directory: dir, arguments: ["--clock-offset", "660"])
    try daemon.start()
    socket = daemon.socketPath
    let later = { (arguments: [String]) throws -> ChimeCLI.Run in try chime(arguments + ["--timeout", "0"], socket: socket) }
    try #require(pollUntil(within: 10) { (try? later(["delivered", "--json"]).objects?.count) == 1 })
    let back = try #require(try later(["delivered", "--json"]).objects?.first)
    #expect(back["id"] as? String == "wake" && back["snooze_count"] as? Int == 1 && back["missed"] as? Bool == true, "\(back)")
    #expect(try later(["delivered"]).stdout.contains("snoozed once"))
    #expect(try later(["pending", "--json"]).objects?.isEmpty == true)
    #expect(daemon.terminate() == 0)
  }
}
