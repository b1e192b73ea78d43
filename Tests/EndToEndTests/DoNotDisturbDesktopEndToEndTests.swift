import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Following the desktop with a real dunst on a private bus under Xvfb: paused with
/// `dunstctl set-paused true`, a passive notification is delivered quietly (never sent to dunst)
/// and `chime dnd` says desktop; resumed, the summary popup is shown by dunst.
@Suite(.testTimeLimit, .serialized) struct DoNotDisturbDesktopEndToEndTests {
  static let app = "org.example.tea"

  func json(_ run: ChimeCLI.Run) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
  }

  @Test func pausedDunstMeansDoNotDisturbAndResumingShowsTheSummary() async throws {
    let desktop = try DesktopSession()
    defer { desktop.stop() }
    try desktop.startMonitor()
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", "none"],
                               environment: desktop.environment)
    try daemon.start()
    defer { _ = daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    _ = try await client.registerApp(displayName: "Tea Timer")

    #expect(try desktop.dunstctl(["set-paused", "true"]).status == 0)
    // Bounded by time, not tries: each try runs the CLI.
    var status: [String: Any] = [:]
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      status = try json(ChimeCLI.run(["dnd", "--json"], socket: daemon.socketPath, app: Self.app))
      if status["source"] as? String == "desktop" { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    try #require(status["source"] as? String == "desktop", "\(status)\n\(daemon.log)")
    #expect(status["active"] as? Bool == true && status["desktop"] as? String == "dunst paused", "\(status)")
    let text = try ChimeCLI.run(["dnd"], socket: daemon.socketPath, app: Self.app)
    #expect(text.stdout.hasPrefix("do not disturb: on (desktop: dunst paused)"), "\(text.stdout)")

    var passive = NotificationContent(title: "Steeped", body: "Tea is ready")
    passive.interruptionLevel = .passive
    let added = try await client.add(NotificationRequest(identifier: "tea", content: passive))
    #expect(added.delivered?.quiet == true)
    // Never sent to dunst: nothing shown and nothing waiting behind the pause.
    #expect(try desktop.dunstctl(["count", "waiting"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    #expect(desktop.displayedCount == 0)
    #expect(!desktop.monitorLog.contains("member=Notify"))

    #expect(try desktop.dunstctl(["set-paused", "false"]).status == 0)
    try #require(pollUntil(within: 10) { desktop.displayedCount == 1 }, "\(daemon.log)")
    let sent = desktop.monitorLog
    #expect(sent.contains(#"string "Do Not Disturb is off""#), "\(sent)")
    #expect(sent.contains(#"string "1 notification while Do Not Disturb was on: Tea Timer""#), "\(sent)")
    let after = try json(ChimeCLI.run(["dnd", "--json"], socket: daemon.socketPath, app: Self.app))
    #expect(after["active"] as? Bool == false && after["desktop"] is NSNull, "\(after)")
  }
}
