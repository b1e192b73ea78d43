import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// Subscribe streams are bounded in all and per app; past a bound the subscriber is told
/// RESOURCE_EXHAUSTED TOO_MANY_SUBSCRIBERS naming the limit and its flag, never left waiting in
/// silence. Those already subscribed keep getting events, and one leaving frees its slot.
@Suite(.testTimeLimit) struct SubscriberLimitTests {
  typealias Events = AsyncThrowingStream<Event, any Error>.AsyncIterator

  func subscribed(_ client: ChimeClient) async throws -> Events {
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    return events
  }

  func refusal(_ client: ChimeClient) async -> ChimeError? {
    var events = client.subscribe().makeAsyncIterator()
    return await caughtError { _ = try await nextEvent(&events) }
  }

  @Test(arguments: Transport.allCases) func aSubscriberPastTheLimitIsToldWhichAndALeavingOneFreesItsSlot(over transport: Transport) async throws {
    let d = try InProcessDaemon { $0.limits.maxSubscribers = 3; $0.limits.maxSubscribersPerApp = 2 }
    let one = try d.client(app: "org.example.one", over: transport)
    let two = try d.client(app: "org.example.two", over: transport)
    var first = try await subscribed(one)
    var second: Events? = try await subscribed(one)

    let perApp = await refusal(one)
    #expect(perApp?.code == .resourceExhausted && perApp?.reason == "TOO_MANY_SUBSCRIBERS", "\(String(describing: perApp))")
    #expect(perApp?.message.contains("org.example.one already has 2 subscribers") == true, "\(String(describing: perApp))")
    #expect(perApp?.message.contains("--max-subscribers-per-app 2") == true, "\(String(describing: perApp))")

    // Another app still has room until the total is reached.
    var third = try await subscribed(two)
    let total = await refusal(two)
    #expect(total?.code == .resourceExhausted && total?.reason == "TOO_MANY_SUBSCRIBERS", "\(String(describing: total))")
    #expect(total?.message.contains("already serves 3 subscribers") == true, "\(String(describing: total))")
    #expect(total?.message.contains("--max-subscribers 3") == true, "\(String(describing: total))")

    // Those subscribed keep being served.
    _ = try await one.add(.tea("a", in: 60))
    #expect(try await nextEvent(&first) { $0.kind == .pendingAdded }.identifiers == ["a"])
    _ = try await two.add(.tea("b", in: 60))
    #expect(try await nextEvent(&third) { $0.kind == .pendingAdded }.identifiers == ["b"])
    #expect(d.daemon.stats().subscribers == 3)

    // One leaving frees its slot: the app subscribes again (bounded retries while the daemon
    // sees the stream end).
    second = nil
    var again: Events?
    for _ in 0..<200 where again == nil {
      again = try? await subscribed(one)
    }
    #expect(again != nil, "a slot freed by a subscriber leaving is given to the next")
    _ = second
    let full = await refusal(two)
    #expect(full?.reason == "TOO_MANY_SUBSCRIBERS", "the freed slot was taken again: \(String(describing: full))")
  }
}
