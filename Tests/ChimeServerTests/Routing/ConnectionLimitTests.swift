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

  /// Refused connections wait for their peer's protocol, but only so many at once: past
  /// `refusalsWaitingMax`, a refused peer is answered natively at once, so a flood of
  /// connections holds few sockets.
  @Test func onlySoManyRefusedConnectionsWaitForTheirPeer() async throws {
    let d = try InProcessDaemon {
      $0.limits.maxConnections = 1
      $0.hooks.refusalWaitMillis = 60_000
    }
    let served = try d.client(app: "org.example.one", over: .socket)
    #expect(try await served.allPending().isEmpty)
    let waiting = try (0..<64).map { _ in try RawSocket(path: d.socketPath) }
    let past = try RawSocket(path: d.socketPath)
    let (bytes, eof) = past.read(timeout: 10)
    #expect(eof && String(decoding: bytes, as: UTF8.self).contains("TOO_MANY_CONNECTIONS"), "\(bytes.count) bytes, eof \(eof)")
    // The ones that wait have heard nothing; a native call is still answered at once.
    #expect(waiting[0].read(timeout: 0).bytes.isEmpty)
    #expect(try await served.allPending().isEmpty)
  }
}
