import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// Connections and calls in flight are bounded, and past a bound the peer gets a status saying
/// which, never a silent hang-up; those already served keep being served.
@Suite(.testTimeLimit) struct ConnectionLimitTests {
  @Test func aConnectionPastTheLimitIsToldWhyAndTheOthersGoOn() async throws {
    let d = try InProcessDaemon { $0.limits.maxConnections = 2 }
    let first = try d.client(app: "org.example.one", over: .socket)
    let second = try d.client(app: "org.example.two", over: .socket)
    #expect(try await first.allPending().isEmpty)
    #expect(try await second.allPending().isEmpty)
    let third = try d.client(app: "org.example.three", over: .socket)
    let error = await caughtError { _ = try await third.allPending() }
    #expect(error?.reason == "TOO_MANY_CONNECTIONS" && error?.code == .resourceExhausted, "\(String(describing: error))")
    #expect(try await first.allPending().isEmpty)
    // Once one leaves, a new connection is served.
    (second.connection as? ChimeConnection)?.close()
    var served = false
    for _ in 0..<200 where !served {
      served = (try? await d.client(app: "org.example.four", over: .socket).allPending()) != nil
    }
    #expect(served)
  }

  @Test func aCallPastTheInFlightLimitIsRefusedAndTheConnectionStays() async throws {
    let d = try InProcessDaemon { $0.limits.maxCallsPerConnection = 1 }
    let client = try d.client(over: .socket)
    var events = client.subscribe().makeAsyncIterator()  // a call that stays in flight
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let error = await caughtError { _ = try await client.allPending() }
    #expect(error?.reason == "TOO_MANY_CALLS" && error?.code == .resourceExhausted, "\(String(describing: error))")
    #expect(error?.message.contains("1 calls are already in flight") == true)
    _ = consume events  // ends the stream: its call is cancelled
    var answered = false
    for _ in 0..<200 where !answered {
      answered = (try? await client.allPending()) != nil
    }
    #expect(answered, "the connection is served again once the stream ended")
  }
}
