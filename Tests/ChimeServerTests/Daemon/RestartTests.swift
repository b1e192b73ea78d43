import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

@Suite(.testTimeLimit) struct RestartTests {
  @Test func pendingRequestsSurviveARestartWithTheirInstants() async throws {
    let d = try InProcessDaemon()
    let before = try await d.client().add(.tea(in: 3600))
    try d.restart()
    let pending = try await d.client().allPending()
    #expect(pending.count == 1)
    #expect(pending[0].nextFire == before.pending.nextFire)
  }

  @Test func firesMissedWhileDownAreDeliveredOnceMarkedMissed() async throws {
    let d = try InProcessDaemon()
    let start = d.clock.now()
    _ = try await d.client().add(.tea("once", in: 60))
    _ = try await d.client().add(.tea("hourly", in: 3600, repeats: true))
    d.stop()
    // Down for ten and a half hours.
    d.clock.advance(seconds: 10.5 * 3600)
    try d.restart()
    let client = try d.client()
    var events = client.subscribe(after: 0).makeAsyncIterator()
    var delivered: [String: DeliveredNotification] = [:]
    while delivered.count < 2 {
      let e = try await nextEvent(&events) { $0.kind == .delivered }
      delivered[e.identifiers[0]] = e.delivered
    }
    #expect(delivered["once"]?.missed == true)
    #expect(delivered["once"]?.due == start.adding(seconds: 60))
    #expect(delivered["hourly"]?.missed == true)
    #expect(delivered["hourly"]?.due == start.adding(seconds: 3600))
    // Not replayed ten times: one delivery, and the next fire is the first future one.
    let pending = try await client.allPending()
    #expect(pending.map(\.request.identifier) == ["hourly"])
    #expect(pending[0].nextFire == start.adding(seconds: 11 * 3600))
    #expect(try await client.allDelivered().count == 2)
  }

  @Test func skipPolicyDropsAMissedFireAndSaysSo() async throws {
    let d = try InProcessDaemon()
    var request = NotificationRequest.tea(in: 60)
    request.missedFire = MissedFirePolicy(action: .skip)
    _ = try await d.client().add(request)
    d.stop()
    d.clock.advance(seconds: 3600)
    try d.restart()
    let client = try d.client()
    var events = client.subscribe(after: 0).makeAsyncIterator()
    let e = try await nextEvent(&events) { $0.kind == .missedSkipped }
    #expect(e.identifiers == ["tea"])
    #expect(try await client.allDelivered().isEmpty)
    #expect(try await client.allPending().isEmpty)
  }

  @Test func subscriberResumesFromItsLastCursorWithoutGapsOrRepeats() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var first = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&first) { $0.kind == .subscribed }
    _ = try await client.add(.tea("a"))
    let seen = try await nextEvent(&first) { $0.kind == .pendingAdded }
    // While the watcher is away, more happens.
    _ = try await client.add(.tea("b"))
    _ = try await client.removePending(["a"])
    var resumed = client.subscribe(after: seen.cursor).makeAsyncIterator()
    let e1 = try await nextEvent(&resumed)
    let e2 = try await nextEvent(&resumed)
    let live = try await nextEvent(&resumed)
    #expect(e1.kind == .pendingAdded && e1.identifiers == ["b"])
    #expect(e2.kind == .pendingRemoved && e2.identifiers == ["a"])
    #expect(e1.cursor > seen.cursor && e2.cursor > e1.cursor)
    #expect(live.kind == .subscribed)
    _ = try await client.add(.tea("c"))
    let e3 = try await nextEvent(&resumed)
    #expect(e3.identifiers == ["c"])
  }

  /// A cursor past the newest event (the data directory was reset under a watcher) is answered
  /// with `events-lost` and the cursor to resume from, then live events: never silence.
  @Test(arguments: Transport.allCases) func aCursorFromTheFutureIsToldEventsLostAndGoesLive(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    _ = try await client.add(.tea("a"))
    var plain = client.subscribe().makeAsyncIterator()
    let newest = try await nextEvent(&plain) { $0.kind == .subscribed }.cursor
    #expect(newest > 0)
    var stale = client.subscribe(after: newest + 1000).makeAsyncIterator()
    let lost = try await nextEvent(&stale)
    #expect(lost.kind == .eventsLost)
    #expect(lost.cursor == newest)
    #expect(lost.note.contains("cursor \(newest + 1000) is past the newest event \(newest)"))
    let live = try await nextEvent(&stale)
    #expect(live.kind == .subscribed && live.cursor == newest)
    _ = try await client.add(.tea("b"))
    let added = try await nextEvent(&stale)
    #expect(added.kind == .pendingAdded && added.identifiers == ["b"] && added.cursor > newest)
  }
}

@Suite(.testTimeLimit) struct ShutdownTests {
  @Test func openStreamsEndWithShuttingDownInsteadOfAVanishingSocket() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(.tea())
    d.stop()
    do {
      _ = try await nextEvent(&events) { $0.kind == .delivered }
      Issue.record("the stream should have ended")
    } catch let error as ChimeError {
      #expect(error.code == .unavailable)
      #expect(error.reason == "SHUTTING_DOWN", "\(error)")
    }
  }

  @Test func acknowledgedChangesSurviveAGracefulShutdown() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<100 { group.addTask { _ = try await client.add(.tea("r\(i)")) } }
      try await group.waitForAll()
    }
    try d.restart()
    #expect(try await d.client().allPending().count == 100)
  }
}
