import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `chime dnd` through the real chimed: on until a duration, status as text and JSON, a
/// delivery made quietly, the schedule set and cleared, refusals, and a restart.
@Suite(.testTimeLimit, .serialized) struct DoNotDisturbEndToEndTests {
  let app = "org.example.tea"

  func chime(_ arguments: [String], socket: String) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: app)
  }

  func json(_ run: ChimeCLI.Run) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
  }

  @Test func onOffScheduleStatusAndARestart() throws {
    let dir = TemporaryDirectory()
    var daemon = DaemonProcess(directory: dir, arguments: [])
    try daemon.start()
    let socket = daemon.socketPath

    let off = try json(chime(["dnd", "--json"], socket: socket))
    #expect(off["active"] as? Bool == false)
    #expect(off["source"] is NSNull && off["schedule"] is NSNull && off["manual"] is NSNull, "\(off)")

    let before = Date()
    let on = try json(chime(["dnd", "on", "--until", "1h", "--json"], socket: socket))
    #expect(on["active"] as? Bool == true)
    #expect(on["source"] as? String == "manual")
    let until = try #require(try Date((on["until"] as? String) ?? "", strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    #expect(abs(until.timeIntervalSince(before) - 3600) < 60, "\(on)")
    let text = try chime(["dnd"], socket: socket)
    #expect(text.stdout.hasPrefix("do not disturb: on (manual), until "), "\(text.stdout)")
    #expect(text.stdout.contains("schedule: none"), "\(text.stdout)")

    // Delivered quietly, with the note on the delivered event.
    #expect(try chime(["add", "quiet", "--title", "Quiet", "--sound", "default"], socket: socket).status == 0)
    let delivered = try #require(try chime(["delivered", "--json"], socket: socket).objects)
    #expect(delivered.first { $0["id"] as? String == "quiet" }?["quiet"] as? Bool == true, "\(delivered)")

    let scheduled = try json(chime(["dnd", "schedule", "22:00-07:00", "--days", "mon-fri", "--json"], socket: socket))
    let schedule = try #require(scheduled["schedule"] as? [String: Any])
    #expect(schedule["window"] as? String == "22:00-07:00")
    #expect(schedule["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])

    let bad = try chime(["dnd", "schedule", "22:00-25:00"], socket: socket)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("INVALID_DND_SCHEDULE"), "\(bad.stderr)")
    let badDays = try chime(["dnd", "schedule", "22:00-07:00", "--days", "mon-fry"], socket: socket)
    #expect(badDays.stderr.contains("INVALID_DND_DAYS"), "\(badDays.stderr)")
    let past = try chime(["dnd", "on", "--until", "2001-01-01T00:00:00Z"], socket: socket)
    #expect(past.status == 1)
    #expect(past.stderr.contains("DND_UNTIL_IN_PAST"), "\(past.stderr)")

    #expect(daemon.terminate() == 0)
    daemon = DaemonProcess(directory: dir, arguments: [])
    try daemon.start()
    let again = try json(chime(["dnd", "--json"], socket: daemon.socketPath))
    #expect(again["source"] as? String == "manual")
    #expect((again["schedule"] as? [String: Any])?["window"] as? String == "22:00-07:00")

    let manualOff = try json(chime(["dnd", "off", "--json"], socket: daemon.socketPath))
    #expect(manualOff["manual"] is NSNull)
    let cleared = try json(chime(["dnd", "schedule", "--clear", "--json"], socket: daemon.socketPath))
    #expect(cleared["schedule"] is NSNull && cleared["active"] as? Bool == false, "\(cleared)")
    #expect(daemon.terminate() == 0)
  }
}
