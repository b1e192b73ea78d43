import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Authorization, settings and badge through the real chimed and the `chime` CLI.
@Suite(.testTimeLimit, .serialized) struct AuthorizationEndToEndTests {
  let app = "org.example.tea"

  func chime(_ arguments: [String], socket: String) throws -> ChimeCLI.Run {
    try ChimeCLI.run(arguments, socket: socket, app: app)
  }

  func json(_ run: ChimeCLI.Run) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
  }

  @Test func askDeniesThenTheUserAllowsAndDecisionsSurviveARestart() throws {
    let dir = TemporaryDirectory()
    var daemon = DaemonProcess(directory: dir, arguments: ["--authorization", "ask-denies"])
    try daemon.start()
    let socket = daemon.socketPath

    // The first request records the policy's decision; later ones return it unchanged.
    let first = try json(chime(["authorize", "--alert", "--sound", "--badge", "--json"], socket: socket))
    #expect(first["granted"] as? Bool == false)
    #expect(first["status"] as? String == "denied")
    let again = try json(chime(["authorize", "--critical-alert", "--json"], socket: socket))
    #expect(again["status"] as? String == "denied")

    let refused = try chime(["add", "tea", "--title", "Tea", "--in", "1h"], socket: socket)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("PERMISSION_DENIED NOTIFICATIONS_NOT_ALLOWED"), "\(refused.stderr)")

    // The user allows it (acting for another app: --app is chime's own here).
    let allowed = try ChimeCLI.run(["apps", "allow", app, "--json"], socket: socket, app: "chime.cli")
    #expect(try json(allowed)["status"] as? String == "authorized")
    #expect(try json(allowed)["sound"] as? Bool == true)
    #expect(try chime(["add", "tea", "--title", "Tea", "--in", "1h"], socket: socket).status == 0)

    // Badge: set, read, set at delivery, refuse a negative count.
    #expect(try chime(["badge", "3"], socket: socket).stdout == "3\n")
    #expect(try chime(["badge"], socket: socket).stdout == "3\n")
    #expect(try chime(["add", "now", "--title", "Now", "--badge", "5", "--sound", "default"], socket: socket).status == 0)
    #expect(try chime(["badge"], socket: socket).stdout == "5\n")
    let negative = try chime(["badge", "--", "-1"], socket: socket)
    #expect(negative.status == 1)
    #expect(negative.stderr.contains("INVALID_ARGUMENT BADGE_INPUT_INVALID"), "\(negative.stderr)")

    // Sound off: delivered without sound, with a note.
    let off = try json(ChimeCLI.run(["apps", "settings", app, "--sound", "off", "--json"], socket: socket, app: "chime.cli"))
    #expect(off["sound"] as? Bool == false)
    #expect(try chime(["add", "quiet", "--title", "Quiet", "--sound", "default"], socket: socket).status == 0)
    let delivered = try #require(try chime(["delivered", "--json"], socket: socket).objects)
    let quiet = try #require(delivered.first { $0["id"] as? String == "quiet" })
    #expect((quiet["sound_resolution"] as? [String: Any])?["plays"] as? String == "none", "\(quiet)")

    #expect(daemon.terminate() == 0)
    daemon = DaemonProcess(directory: dir, arguments: ["--authorization", "ask-denies"])
    try daemon.start()
    let settings = try json(chime(["settings", "--json"], socket: daemon.socketPath))
    #expect(settings["status"] as? String == "authorized")
    #expect(settings["sound"] as? Bool == false)
    #expect(settings["badge_count"] as? Int == 5)
    #expect(try json(chime(["authorize", "--sound", "--json"], socket: daemon.socketPath))["sound"] as? Bool == false)

    // Another app is still not allowed; denying this one refuses its adds again.
    let other = try ChimeCLI.run(["add", "x", "--title", "X"], socket: daemon.socketPath, app: "org.example.other")
    #expect(other.stderr.contains("NOTIFICATIONS_NOT_ALLOWED"))
    #expect(try ChimeCLI.run(["apps", "deny", app], socket: daemon.socketPath, app: "chime.cli").status == 0)
    #expect(try chime(["add", "y", "--title", "Y"], socket: daemon.socketPath).stderr.contains("NOTIFICATIONS_NOT_ALLOWED"))
    #expect(daemon.terminate() == 0)
  }

  @Test func badgeChangesAreEvents() async throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let socket = daemon.socketPath
    #expect(try chime(["badge", "2"], socket: socket).status == 0)
    #expect(try chime(["badge", "0"], socket: socket).status == 0)
    // Replayed from the start: both changes, with their counts.
    let client = try ChimeClient.connect(socketPath: socket, app: app)
    var events = client.subscribe(after: 0).makeAsyncIterator()
    let two = try await nextEvent(&events) { $0.kind == .badgeChanged }
    let zero = try await nextEvent(&events) { $0.kind == .badgeChanged }
    #expect(two.badgeCount == 2 && zero.badgeCount == 0)
    #expect(daemon.terminate() == 0)
  }
}
