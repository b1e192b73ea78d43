import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The "Allow notifications?" prompt on a real notification server: the real chimed with
/// `--authorization ask` shows it in dunst (on a private bus under Xvfb) when an app first asks;
/// choosing Allow in dunst's context menu (`dunstctl context`) answers the app's waiting call.
@Suite(.testTimeLimit, .serialized) struct DesktopAuthorizationPromptTests {
  static let app = "org.example.tea"

  /// Whether `condition` holds within `seconds`, looking every 10 ms (dunst is another process).
  static func waitUntil(within seconds: Int, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }

  @Test func allowChosenInDunstGrantsTheWaitingCall() async throws {
    let desktop = try DesktopSession()
    try desktop.startMonitor()
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", "none",
                                                           "--authorization", "ask"],
                               environment: desktop.environment)
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    _ = try await client.registerApp(displayName: "Tea Timer")
    let asking = Task { try await client.requestAuthorization([.alert, .sound, .badge]) }

    // Polled without holding this thread: the call waiting for the answer needs one, and a
    // loaded machine's pool may have no other to give it (a fresh clone's run waited 10 s).
    try #require(await Self.waitUntil(within: 60) { desktop.displayedCount == 1 }, "\(daemon.log)")
    let sent = desktop.monitorLog
    for expected in [#"string "Allow notifications?""#, #"Tea Timer would like to send you notifications: alerts, sounds, badges"#,
                     #"string "allow""#, #"string "Allow""#, #"string "deny""#, #"string "Don't Allow""#] {
      #expect(sent.contains(expected), "\(expected) not sent:\n\(sent)")
    }
    // dunst lists an action as "#<label> [<summary>]": "#Allow" is not "#Don't Allow".
    #expect(try desktop.chooseInContextMenu("#Allow").status == 0)
    let answer = try await asking.value
    #expect(answer.granted && answer.settings.status == .authorized, "\(daemon.log)")
    #expect(answer.settings.alert && answer.settings.sound && answer.settings.badge)
    #expect(await Self.waitUntil(within: 30) { desktop.displayedCount == 0 }, "the prompt leaves the screen")
    _ = try await client.add(NotificationRequest(identifier: "tea", content: NotificationContent(title: "Tea")))
  }
}
