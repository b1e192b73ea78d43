import ChimeClient
import ChimeCore
import ChimeServer
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Alarms ringing in a real daemon with the manual clock and a fake sound player (a script that
/// appends its pid to a file, then exits, or holds on like a long sound while `hold` exists):
/// the sound plays again after each play as the clock moves, and each way a ring ends (answered,
/// removed, timed out; dismissed is the desktop's, see DesktopRingTests) stops the player
/// that runs, records why on the notification and sends a `ring-ended` event.
@Suite(.serialized) struct RingingTests {
  static let app = "org.example.alarm"

  final class Setup: Sendable {
    let daemon: InProcessDaemon
    let dir: TemporaryDirectory
    let client: ChimeClient

    init() throws {
      let dir = TemporaryDirectory()
      let player = dir.file("player")
      ExecutableScript.write("echo $$ >> '\(dir.file("plays"))'\nif [ -e '\(dir.file("hold"))' ]; then exec sleep 30; fi", to: player)
      daemon = try InProcessDaemon(directory: dir) { configuration in
        configuration.collaborators.presentation.playSounds = true
        configuration.collaborators.presentation.soundPlayer = player
      }
      self.dir = dir
      client = try daemon.client(app: RingingTests.app)
    }

    /// The pids of the plays so far, in order.
    var plays: [Int32] {
      ((try? String(contentsOfFile: dir.file("plays"), encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    func hold(_ on: Bool) {
      if on { _ = FileManager.default.createFile(atPath: dir.file("hold"), contents: Data()) } else { unlink(dir.file("hold")) }
    }
  }

  static func alarm(_ id: String = "wake", ring: UInt32 = 60) -> NotificationRequest {
    var content = NotificationContent(title: "Wake up")
    content.ring = Ring(seconds: ring)
    return NotificationRequest(identifier: id, content: content)
  }

  static func isAlive(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

  @Test func theSoundPlaysAgainAsTheClockMovesUntilTheRingTimesOut() async throws {
    let s = try Setup()
    var events = s.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let added = try await s.client.add(Self.alarm())
    #expect(added.pending.request.content.sound == .default, "a ring without a sound rings the default sound")
    try #require(try await waitUntil(within: 30) { s.plays.count == 1 })
    // Played again once a play is over and a second has passed since it started.
    for n in 2...4 {
      s.daemon.advance(seconds: 1)
      try #require(try await waitUntil(within: 30) { s.plays.count == n }, "play \(n)")
    }
    let ringing = try #require(try await s.client.allDelivered().first)
    #expect(ringing.ringEnded == nil)
    #expect(RingRule.isRinging(ringing, now: s.daemon.clock.now()))

    s.daemon.advance(seconds: 60)
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.identifiers == ["wake"] && ended.note == "timed-out")
    #expect(try await s.client.allDelivered().first?.ringEnded == .timedOut)
    let count = s.plays.count
    s.daemon.advance(seconds: 5)
    // A later ring of another notification plays; this one stays silent.
    _ = try await s.client.add(Self.alarm("other"))
    try #require(try await waitUntil(within: 30) { s.plays.count == count + 1 })
  }

  /// An alarm with auto-snooze that runs out unanswered snoozes itself by its category's first
  /// snooze duration, comes back with its count and rings again, until it has been snoozed
  /// `autoSnooze` times; then it stays delivered, its ring timed out.
  @Test func anUnansweredAlarmSnoozesItselfAndRingsAgainUpToItsCount() async throws {
    let s = try Setup()
    var category = NotificationCategory(identifier: "alarm")
    category.snoozeSeconds = [300, 900]
    try await s.client.setCategories([category])
    var events = s.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = Self.alarm(ring: 30)
    request.content.ring?.autoSnooze = 2
    request.content.categoryIdentifier = "alarm"
    var plays = s.plays.count
    _ = try await s.client.add(request)
    for round in 0...2 {
      let delivered = try await nextEvent(&events) { $0.kind == .delivered }
      #expect(delivered.delivered?.snoozeCount == round)
      let before = plays
      let rang = try await waitUntil(within: 30) { s.plays.count > before }
      try #require(rang, "round \(round) rings")
      s.daemon.advance(seconds: 31)
      let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
      #expect(ended.note == "timed-out")
      if round < 2 {
        let snoozed = try await nextEvent(&events) { $0.kind == .snoozed }
        let entry = try #require(snoozed.pending)
        #expect(entry.snoozeCount == round + 1)
        #expect(entry.nextFire == s.daemon.clock.now().adding(millis: 300_000), "the category's first duration")
        #expect(try await s.client.allDelivered().isEmpty)
        plays = s.plays.count
        s.daemon.advance(seconds: 300)
      }
    }
    // Snoozed twice: the third time out leaves it delivered.
    s.daemon.advance(seconds: 5)
    let last = try #require(try await s.client.allDelivered().first)
    #expect(last.snoozeCount == 2 && last.ringEnded == .timedOut)
    #expect(try await s.client.allPending().isEmpty)
  }

  /// Answered in time, an alarm with auto-snooze is not snoozed.
  @Test func anAnsweredAlarmDoesNotSnoozeItself() async throws {
    let s = try Setup()
    var events = s.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = Self.alarm(ring: 30)
    request.content.ring?.autoSnooze = 3
    _ = try await s.client.add(request)
    try #require(try await waitUntil(within: 30) { s.plays.count == 1 })
    try await s.client.respond(to: "wake")
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.note == "answered")
    s.daemon.advance(seconds: 31)
    #expect(try await s.client.allPending().isEmpty)
  }

  /// An answer that waits for the category's content extension while the ring times out is
  /// still recorded: the ring's end marks the notification, it does not make it another one.
  @Test func anAnswerWaitingForItsExtensionWhileTheRingTimesOutIsRecorded() async throws {
    let s = try Setup()
    try await s.client.setCategories([NotificationCategory(identifier: "alarm")])
    let ext = try s.daemon.client(app: Self.app)
    var asks = ext.registerExtension("ui", categories: ["alarm"], attributes: ExtensionAttributes(initialContentSizeRatio: 1))
      .makeAsyncIterator()
    #expect(try await nextMessage(&asks).registered)
    var events = s.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = Self.alarm(ring: 5)
    request.content.categoryIdentifier = "alarm"
    _ = try await s.client.add(request)
    #expect(try await nextMessage(&asks).delivered != nil)
    try #require(try await waitUntil(within: 30) { s.plays.count >= 1 })
    // Answered 2 s in: the extension is asked (its answer is due 5 s later, at 7 s).
    s.daemon.advance(seconds: 2)
    async let answered = s.client.respond(to: "wake")
    let asked = try await nextMessage(&asks)
    #expect(asked.response?.notificationIdentifier == "wake")
    // At 6 s the ring has timed out, while the extension still thinks.
    s.daemon.advance(seconds: 4)
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.note == "timed-out")
    try await ext.answerResponse(asked.responseID, extension: "ui", with: .dismissAndForward)
    let result = try await answered
    #expect(result.removed)
    #expect(try await s.client.allDelivered().isEmpty)
  }

  /// A play that is running when the ring ends is stopped: its process is gone.
  @Test(arguments: ["answered", "removed", "remove-all", "timed-out"])
  func eachEndStopsThePlayingPlayer(_ how: String) async throws {
    let s = try Setup()
    var events = s.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    s.hold(true)
    _ = try await s.client.add(Self.alarm())
    try #require(try await waitUntil(within: 30) { s.plays.count == 1 })
    let pid = s.plays[0]
    #expect(Self.isAlive(pid))
    switch how {
    case "answered": try await s.client.respond(to: "wake")
    case "removed": #expect(try await s.client.removeDelivered(["wake"]) == ["wake"])
    case "remove-all": _ = try await s.client.removeAllDelivered()
    default: s.daemon.advance(seconds: 61)
    }
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.note == (how == "remove-all" ? "removed" : how))
    #expect(try await waitUntil(within: 30) { !Self.isAlive(pid) }, "player \(pid) still running after the ring ended (\(how))")
    s.hold(false)
    s.daemon.advance(seconds: 2)
    let left = try await s.client.allDelivered()
    if how == "timed-out" { #expect(left.first?.ringEnded == .timedOut) } else { #expect(left.isEmpty) }
    // No presentation failure for a player stopped on purpose. Players run one at a time, so
    // once the next ring's play ran, the stopped one's end was handled.
    _ = try await s.client.add(Self.alarm("next", ring: 5))
    try #require(try await waitUntil(within: 30) { s.plays.count == 2 })
    _ = try await s.client.removeDelivered(["next"])
    let kinds = Locked<[Event.Kind]>([])
    _ = try await nextEvent(&events) { event in
      kinds.withLock { $0.append(event.kind) }
      return event.kind == .deliveredRemoved && event.identifiers == ["next"]
    }
    #expect(!kinds.withLock { $0 }.contains(.presentationFailed), "\(kinds.withLock { $0 })")
  }

  /// A restart in the middle of a ring loses nothing: the notification is still delivered and
  /// rings again for the time that is left; then it times out as it would have.
  @Test func aRestartMidRingResumesItForTheTimeLeft() async throws {
    let s = try Setup()
    _ = try await s.client.add(Self.alarm(ring: 60))
    try #require(try await waitUntil(within: 30) { s.plays.count == 1 })
    s.daemon.advance(seconds: 20)
    try s.daemon.restart()
    try #require(try await waitUntil(within: 30) { s.plays.count >= 2 }, "the ring did not resume")
    let client = try s.daemon.client(app: Self.app)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    #expect(try await client.allDelivered().map(\.request.identifier) == ["wake"])
    // 40 s were left: at 39 it still rings, at 41 it has timed out.
    s.daemon.advance(seconds: 39)
    try #require(try await waitUntil(within: 30) { s.plays.count >= 3 })
    s.daemon.advance(seconds: 2)
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.note == "timed-out")
    // A ring that ended is not resumed by the next restart.
    try s.daemon.restart()
    let count = s.plays.count
    let again = try s.daemon.client(app: Self.app)
    _ = try await again.add(Self.alarm("barrier", ring: 5))
    let rang = try await waitUntil(within: 30) { s.plays.count > count }
    try #require(rang, "the barrier did not ring (plays \(s.plays.count), \(count) before the restart)")
    #expect(s.plays.count == count + 1, "only the barrier rings")
    #expect(try await again.allDelivered().first { $0.request.identifier == "wake" }?.ringEnded == .timedOut)
  }

  /// A ring that ran out while chimed was stopped ends at the restart as it would have: timed
  /// out (recorded, a `ring-ended` event), and its auto-snooze snoozes it.
  @Test func aRingThatRanOutWhileChimedWasStoppedTimesOutAtTheRestart() async throws {
    let s = try Setup()
    var request = Self.alarm(ring: 30)
    request.content.ring?.autoSnooze = 1
    _ = try await s.client.add(request)
    try #require(try await waitUntil(within: 30) { s.plays.count == 1 })
    // The clock moves past the ring's end while chimed is not looking, then it restarts.
    s.daemon.clock.advance(seconds: 40)
    try s.daemon.restart()
    let client = try s.daemon.client(app: Self.app)
    var events = client.subscribe(after: 0).makeAsyncIterator()
    let ended = try await nextEvent(&events) { $0.kind == .ringEnded }
    #expect(ended.identifiers == ["wake"] && ended.note == "timed-out")
    let snoozed = try await nextEvent(&events) { $0.kind == .snoozed }
    #expect(snoozed.pending?.snoozeCount == 1)
    #expect(s.plays.count == 1, "it does not ring again at the restart")
  }

  @Test func aRingOutOfRangeOrSilentIsRefused() async throws {
    let s = try Setup()
    for (ring, sound) in [(UInt32(4), Sound?.none), (1801, nil), (60, Sound.none)] {
      var request = Self.alarm(ring: ring)
      request.content.sound = sound
      await #expect {
        try await s.client.add(request)
      } throws: { error in
        (error as? ChimeError)?.reason == "INVALID_RING"
      }
    }
  }

  /// A passive notification is delivered without sound, so a ring on one could never sound:
  /// the service refuses it, whatever the transport, and nothing is kept.
  @Test func aRingOnAPassiveNotificationIsRefused() async throws {
    let s = try Setup()
    var request = Self.alarm(ring: 120)
    request.content.interruptionLevel = .passive
    await #expect {
      try await s.client.add(request)
    } throws: { error in
      let error = error as? ChimeError
      return error?.code == .invalidArgument && error?.reason == "INVALID_RING"
        && error?.field == "request.content.interruption_level" && error?.message.contains("passive") == true
    }
    #expect(try await s.client.pending().items.isEmpty)
    request.content.interruptionLevel = .timeSensitive
    _ = try await s.client.add(request)
  }
}
