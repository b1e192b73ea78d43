import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The CLI as people meet it, through the real binary against the real daemon.
@Suite(.testTimeLimit, .serialized) struct CLIPapercutTests {
  func chime(_ arguments: [String], socket: String = "/nonexistent/chimed.sock") throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: "org.example.papercuts")
  }

  @Test func atIsStoredAsAnInstantAndShownAsOne() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let add = try chime(["add", "x", "--title", "X", "--at", "2099-11-24T08:30:00Z", "--json"], socket: daemon.socketPath)
    #expect(add.status == 0, "\(add.stderr)")
    let trigger = try #require(add.object?["trigger"] as? [String: Any])
    #expect(trigger["type"] as? String == "calendar")
    #expect(trigger["at"] as? String == "2099-11-24T08:30:00.000Z")
    #expect(trigger["tz"] as? String == "UTC")
    #expect(add.object?["next_fire"] as? String == "2099-11-24T08:30:00.000Z")
    let table = try chime(["pending"], socket: daemon.socketPath)
    #expect(table.stdout.contains("at 2099-11-2"))

    let past = try chime(["add", "y", "--title", "Y", "--at", "2001-01-01T00:00:00Z"], socket: daemon.socketPath)
    #expect(past.status == 64)
    #expect(past.stderr.contains("in the past"))
    let local = try chime(["add", "z", "--title", "Z", "--at", "2099-01-01 09:30"], socket: daemon.socketPath)
    #expect(local.status == 0, "\(local.stderr)")
    #expect(local.stdout.contains("local zone"))
  }

  @Test func errorsAreJSONWithJSON() throws {
    let down = try chime(["pending", "--json"])
    #expect(down.status == 69)
    #expect(down.object?["code"] as? String == "UNAVAILABLE")
    let usage = try chime(["add", "x", "--in", "10", "--json"])
    #expect(usage.status == 64)
    #expect(usage.object?["reason"] as? String == "INVALID_COMMAND_LINE")
    #expect((usage.object?["message"] as? String)?.contains("needs a unit") == true)
  }

  @Test func removeOfAnUnknownOrDeliveredIdentifierFails() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let unknown = try chime(["remove", "nosuch"], socket: daemon.socketPath)
    #expect(unknown.status == 1)
    #expect(try chime(["remove", "nosuch", "--ignore-missing"], socket: daemon.socketPath).status == 0)
    #expect(try chime(["add", "tea", "--title", "Tea"], socket: daemon.socketPath).status == 0)
    let delivered = try chime(["remove", "tea"], socket: daemon.socketPath)
    #expect(delivered.status == 1)
    #expect(delivered.stderr.contains("chime delivered --remove tea"))
  }

  @Test func registeringAgainChangesOnlyWhatIsGiven() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let first = try chime(["apps", "register", "org.example.tea", "--display-name", "Tea"], socket: daemon.socketPath)
    #expect(first.status == 0, "\(first.stderr)")
    let again = try chime(["apps", "register", "org.example.tea", "--json"], socket: daemon.socketPath)
    #expect(again.status == 0, "\(again.stderr)")
    #expect((again.object?["changed"] as? [Any])?.isEmpty == true)
    let shown = try chime(["apps", "show", "org.example.tea"], socket: daemon.socketPath)
    #expect(shown.stdout.contains("Tea"))
    let reset = try chime(["apps", "register", "org.example.tea", "--reset"], socket: daemon.socketPath)
    #expect(reset.stdout.contains("changed display-name"))
  }

  @Test func inputPeopleType() throws {
    let typo = try chime(["pendng"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("did you mean \"pending\""))
    #expect(try chime(["help", "nosuch"]).status == 64)
    let negative = try chime(["add", "x", "--title", "X", "--in", "-5s"])
    #expect(negative.stderr.contains("positive"))
    let twice = try chime(["next", "--calendar", "hour=9,hour=10"])
    #expect(twice.status != 0)
    #expect(twice.stderr.contains("twice"))
    let spaced = try chime(["next", "--calendar", "hour = 9", "--json"])
    #expect(spaced.status == 0, "\(spaced.stderr)")
    let tzWithIn = try chime(["add", "x", "--title", "X", "--in", "10s", "--tz", "UTC"])
    #expect(tzWithIn.status == 64)
  }
}
