import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// A ringing alarm on a real notification server (dunst on a private bus under Xvfb): it is sent
/// critical, resident where dunst keeps notifications and never expiring, its sound played by
/// Chime's player (the fake one records its pid and holds on); closing it in dunst
/// (`dunstctl close`) ends the ring as dismissed and stops the player, and the notification
/// stays delivered with why its ring ended.
@Suite(.testTimeLimit, .serialized) struct DesktopRingTests {
  static let app = "org.example.alarm"

  @Test func closingARingingAlarmInDunstStopsTheRing() async throws {
    let desktop = try DesktopSession()
    try desktop.startMonitor()
    let dir = TemporaryDirectory()
    let player = dir.file("player")
    ExecutableScript.write("echo $$ >> '\(dir.file("plays"))'\nexec sleep 30", to: player)
    let daemon = DaemonProcess(directory: dir, arguments: ["--presenter", "freedesktop", "--sound-player", player],
                               environment: desktop.environment)
    try daemon.start()
    defer { daemon.terminate() }
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var plays: [Int32] {
      ((try? String(contentsOfFile: dir.file("plays"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    var content = NotificationContent(title: "Wake up", body: "07:00")
    content.ring = Ring(seconds: 120)
    _ = try await client.add(NotificationRequest(identifier: "wake", content: content))
    try #require(pollUntil(within: 10) { desktop.displayedCount == 1 && plays.count == 1 }, "\(daemon.log)")
    let sent = desktop.monitorLog
    for expected in [#"string "urgency""#, "byte 2", #"string "suppress-sound""#] {
      #expect(sent.contains(expected), "\(expected) not sent:\n\(sent)")
    }
    // Never expiring: the timeout argument after the hints is 0.
    #expect(sent.contains("int32 0"), "no expire timeout 0:\n\(sent)")
    let capabilities = sent.contains(#"string "persistence""#)
    #expect(sent.contains(#"string "resident""#) == capabilities, "resident follows the persistence capability:\n\(sent)")
    let pid = plays[0]
    #expect(kill(pid, 0) == 0)

    #expect(try desktop.dunstctl(["close"]).status == 0)
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.identifiers == ["wake"] && ended.note == "dismissed")
    #expect(pollUntil(within: 10) { kill(pid, 0) != 0 }, "player \(pid) still runs after the alarm was closed")
    let delivered = try await client.allDelivered()
    #expect(delivered.map(\.request.identifier) == ["wake"])
    #expect(delivered.first?.ringEnded == .dismissed)
  }
}
