import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Snooze buttons on a real notification server: dunst on a private bus under Xvfb shows the
/// category's snooze durations after its actions, and choosing one in its context menu
/// (`dunstctl context`) snoozes the notification: it leaves the screen and the delivered list
/// and is listed as snoozed.
@Suite(.testTimeLimit, .serialized) struct DesktopSnoozeTests {
  static let app = "org.example.alarm"

  @Test func aSnoozeButtonChosenInDunstSnoozesTheNotification() async throws {
    let desktop = try DesktopSession()
    try desktop.startMonitor()
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", "none"],
                               environment: desktop.environment)
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var alarm = NotificationCategory(identifier: "alarm", actions: [NotificationAction(identifier: "stop", title: "Stop")])
    alarm.snoozeSeconds = [300, 3600]
    try await client.setCategories([alarm])
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    var content = NotificationContent(title: "Wake up")
    content.categoryIdentifier = "alarm"
    _ = try await client.add(NotificationRequest(identifier: "wake", content: content))
    try #require(pollUntil(within: 10) { desktop.displayedCount == 1 }, "\(daemon.log)")
    let sent = desktop.monitorLog
    for expected in [#"string "stop""#, #"string "Stop""#, #"string "chime-snooze:300""#, #"string "Snooze 5 min""#,
                     #"string "chime-snooze:3600""#, #"string "Snooze 1 h""#] {
      #expect(sent.contains(expected), "\(expected) not sent:\n\(sent)")
    }
    // After the category's actions.
    let stop = try #require(sent.range(of: #"string "Stop""#)), snooze = try #require(sent.range(of: #"string "Snooze 5 min""#))
    #expect(stop.upperBound < snooze.lowerBound)

    #expect(try desktop.chooseInContextMenu("Snooze 5 min").status == 0)
    let response = try await nextEvent(&events) { $0.kind == .response }
    #expect(response.response?.actionIdentifier == NotificationAction.snoozeIdentifier && response.response?.snoozeSeconds == 300)
    let snoozed = try await nextEvent(&events) { $0.kind == .snoozed }
    #expect(snoozed.identifiers == ["wake"] && snoozed.pending?.snoozeCount == 1)
    #expect(snoozed.pending.map { $0.nextFire.millis(since: $0.added) } == 300_000)
    #expect(pollUntil(within: 10) { desktop.displayedCount == 0 }, "it leaves the screen")
    #expect(try await client.allDelivered().isEmpty)
    #expect(try await client.allPending().map(\.snoozeCount) == [1])

    // Snoozed through the call (not a click): chimed closes it on the desktop.
    _ = try await client.add(NotificationRequest(identifier: "nap", content: content))
    try #require(pollUntil(within: 10) { desktop.displayedCount == 1 })
    _ = try await client.snooze("nap", seconds: 600)
    #expect(pollUntil(within: 10) { desktop.displayedCount == 0 }, "the Snooze call takes it off the screen")
  }
}
