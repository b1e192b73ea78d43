import ChimeConfig
import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

@Suite(.testTimeLimit) struct SchedulingTests {
  @Test(arguments: Transport.allCases) func addedRequestFiresAtItsInstantAndIsDelivered(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    let added = d.clock.now()
    let result = try await client.add(.tea(in: 10))
    #expect(result.pending.nextFire == added.adding(seconds: 10))
    #expect(!result.replaced)
    // The answer carries the request as the store packed it for its row: the same value a
    // listing reads back, and the one the event carries.
    #expect(try await client.pending().items == [result.pending])
    let event = try await nextEvent(&events) { $0.kind == .pendingAdded }
    #expect(event.pending == result.pending)

    d.advance(seconds: 9.9)
    d.advance(seconds: 0.1)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.identifiers == ["tea"])
    #expect(delivered.delivered?.due == added.adding(seconds: 10))
    #expect(delivered.delivered?.delivered == added.adding(seconds: 10))
    #expect(delivered.delivered?.missed == false)

    #expect(try await client.allPending().isEmpty)
    let list = try await client.allDelivered()
    #expect(list.map(\.request.identifier) == ["tea"])
    #expect(list.first?.request.content.body == "Steeped")
  }

  @Test(arguments: Transport.allCases) func aTimedDeliverySaysHowLateTheTimerWoke(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(.tea(in: 10))
    _ = try await client.add(.tea("now", in: nil))
    // The injected clock jumps a quarter second past the due instant before the timer looks.
    d.advance(seconds: 10.25)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered && $0.identifiers == ["tea"] }
    #expect(delivered.delivered?.fireLatenessMicros == 250_000)
    let stored = try await client.allDelivered()
    #expect(stored.first { $0.request.identifier == "tea" }?.fireLatenessMicros == 250_000, "kept with the record")
    #expect(stored.first { $0.request.identifier == "now" }?.fireLatenessMicros == nil, "no timer, no lateness")
  }

  @Test(arguments: Transport.allCases) func nothingFiresEarly(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    _ = try await client.add(.tea(in: 10))
    d.advance(seconds: 9.999)
    // A round trip through the loop after the re-plan: the request must still be pending.
    #expect(try await client.allPending().count == 1)
    #expect(try await client.allDelivered().isEmpty)
  }

  @Test(arguments: Transport.allCases) func requestWithoutTriggerIsDeliveredAtOnce(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    let result = try await client.add(.tea(in: nil))
    #expect(result.delivered?.request.identifier == "tea")
    #expect(try await client.allDelivered().count == 1)
    #expect(try await client.allPending().isEmpty)
  }

  @Test(arguments: Transport.allCases) func sameIdentifierReplacesTheEarlierRequestWhole(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await client.add(.tea(title: "First", in: 10))
    var second = NotificationRequest.tea(title: "Second", in: 100)
    second.content.body = ""
    let result = try await client.add(second)
    #expect(result.replaced)
    let replaced = try await nextEvent(&events) { $0.kind == .pendingReplaced }
    #expect(replaced.identifiers == ["tea"])
    let pending = try await client.allPending()
    #expect(pending.count == 1)
    #expect(pending[0].request.content.title == "Second")
    #expect(pending[0].request.content.body == "")

    // The old instant no longer fires; the new one does.
    d.advance(seconds: 50)
    #expect(try await client.allDelivered().isEmpty)
    d.advance(seconds: 50)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.delivered?.request.content.title == "Second")
  }

  @Test(arguments: Transport.allCases) func repeatingRequestFiresEachIntervalAndStaysPending(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let start = d.clock.now()
    _ = try await client.add(.tea("stretch", in: 60, repeats: true))
    for n in 1...3 {
      d.advance(seconds: 60)
      let e = try await nextEvent(&events) { $0.kind == .delivered }
      #expect(e.delivered?.due == start.adding(seconds: 60 * Double(n)))
    }
    let pending = try await client.allPending()
    #expect(pending.first?.nextFire == start.adding(seconds: 240))
    #expect(pending.first?.fireCount == 3)
  }

  @Test(arguments: Transport.allCases) func removalCancelsPendingAndReportsWhatExisted(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    for id in ["a", "b", "c"] { _ = try await client.add(.tea(id)) }
    #expect(try await client.removePending(["a", "zzz"]) == ["a"])
    #expect(try await client.allPending().map(\.request.identifier).sorted() == ["b", "c"])
    #expect(try await client.removeAllPending().sorted() == ["b", "c"])
    d.advance(seconds: 20)
    #expect(try await client.allPending().isEmpty)
    #expect(try await client.allDelivered().isEmpty)
  }

  @Test(arguments: Transport.allCases) func deliveredNotificationsCanBeRemoved(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    for id in ["a", "b", "c"] { _ = try await client.add(.tea(id, in: nil)) }
    #expect(try await client.removeDelivered(["b"]) == ["b"])
    #expect(try await client.allDelivered().map(\.request.identifier).sorted() == ["a", "c"])
    #expect(try await client.removeAllDelivered().sorted() == ["a", "c"])
    #expect(try await client.allDelivered().isEmpty)
  }

  @Test(arguments: Transport.allCases) func appsNeverSeeEachOthersData(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let alice = try d.client(app: "org.example.alice", over: transport)
    let bob = try d.client(app: "org.example.bob", over: transport)
    var bobEvents = bob.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&bobEvents) { $0.kind == .subscribed }
    _ = try await alice.add(.tea("secret", in: 5))
    _ = try await alice.add(.tea("now", in: nil))
    #expect(try await bob.allPending().isEmpty)
    #expect(try await bob.allDelivered().isEmpty)
    #expect(try await bob.removePending(["secret"]).isEmpty)
    #expect(try await bob.removeAllDelivered().isEmpty)
    _ = try await bob.add(.tea("mine", in: 5))
    d.advance(seconds: 5)
    // Bob's stream carries only Bob's events.
    let e = try await nextEvent(&bobEvents) { $0.kind == .delivered }
    #expect(e.identifiers == ["mine"])
    #expect(try await alice.allPending().isEmpty)
    #expect(try await alice.allDelivered().map(\.request.identifier).sorted() == ["now", "secret"])
  }

  @Test(arguments: Transport.allCases) func pagingWalksEveryPendingRequestOnce(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    for i in 0..<25 { _ = try await client.add(.tea("r\(i)", in: Double(100 + i))) }
    var seen: [String] = []
    var token = ""
    repeat {
      let page = try await client.pending(PageRequest(pageSize: 7, pageToken: token))
      #expect(page.items.count <= 7)
      seen += page.items.map(\.request.identifier)
      token = page.nextPageToken
    } while !token.isEmpty
    #expect(seen == (0..<25).map { "r\($0)" })  // ordered by next fire
  }

  @Test(arguments: Transport.allCases) func manyPendingRequestsFireInOrderThroughASmallWindow(over transport: Transport) async throws {
    // A window of 8 keys in memory, 300 pending: the scheduler must page through the store's
    // index and still fire every request exactly once, in due order.
    let d = try InProcessDaemon { $0.limits.windowCapacity = 8 }
    let client = try d.client(over: transport)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let count = 300
    try await withThrowingTaskGroup(of: Void.self) { group in
      for i in 0..<count {
        group.addTask { _ = try await client.add(.tea("r\(i)", in: Double(10 + (i * 7919) % count))) }
      }
      try await group.waitForAll()
    }
    #expect(d.daemon.stats().scheduleWindowKeys <= 16)
    d.advance(seconds: Double(10 + count))
    var fired: [String] = []
    var dues: [Int64] = []
    while fired.count < count {
      let e = try await nextEvent(&events, within: 30) { $0.kind == .delivered }
      fired += e.identifiers
      dues.append(e.delivered!.due.unixMillis)
    }
    #expect(Set(fired).count == count)
    #expect(dues == dues.sorted())
    #expect(try await client.allPending().isEmpty)
    #expect(d.daemon.stats().scheduleWindowKeys <= 16)
  }
}

@Suite(.testTimeLimit) struct LargePageTests {
  @Test(arguments: Transport.allCases) func pagesOfLargeRequestsStayUnderTheFrameLimit(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let client = try d.client(over: transport)
    // 100 × ~16 KB of user info: a full default page would be a 1.6 MB reply.
    let userInfo = "{\"blob\":\"" + String(repeating: "x", count: 15_000) + "\"}"
    for i in 0..<100 {
      var request = NotificationRequest.tea("big\(i)", in: 3600 + Double(i))
      request.content.userInfoJSON = userInfo
      request.content.body = String(repeating: "b", count: 1000)
      _ = try await client.add(request)
    }
    let first = try await client.pending()
    #expect(first.items.count < 100)
    #expect(first.items.count > 10)
    #expect(!first.nextPageToken.isEmpty)
    let all = try await client.allPending()
    #expect(all.map(\.request.identifier) == (0..<100).map { "big\($0)" })
  }
}
