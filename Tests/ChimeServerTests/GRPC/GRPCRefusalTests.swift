import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Testing

/// A connection chimed refuses before reading from it is told why in the peer's protocol: a
/// gRPC client gets the refusal as its call's status and a GOAWAY naming it, not a native
/// frame it cannot read.
@Suite(.testTimeLimit) struct GRPCRefusalTests {
  @Test func aGRPCPeerPastTheConnectionLimitGetsTheReasonAsItsCallsStatus() async throws {
    // The wait for the peer's first bytes is long here: a loaded machine may stall this
    // thread between connecting and sending the preface (RefusalWaitTests covers the wait).
    let d = try InProcessDaemon {
      $0.limits.maxConnections = 1
      $0.hooks.refusalWaitMillis = 60_000
    }
    let native = try d.client(app: "org.example.one")
    #expect(try await native.allPending().isEmpty)
    let h2 = try H2Client(path: d.socketPath)
    let refused = h2.response(h2.request(Method.getServerInfo.rawValue, messages: [[]]))
    #expect(refused.grpcStatus == StatusCode.resourceExhausted.rawValue, "\(refused)")
    #expect(GRPCTransportTests().errorInfo(refused)?.reason == "TOO_MANY_CONNECTIONS", "\(refused)")
    #expect(refused.status["grpc-message"]?.contains("--max-connections") == true, "\(refused)")
    #expect(h2.pump(until: { h2.closed }))
    #expect(h2.goAwayCode == 0 && h2.goAwayDebug.hasPrefix("TOO_MANY_CONNECTIONS: "), "\(h2.goAwayDebug)")
    // The native client is still served; a native peer past the limit still reads a native frame.
    #expect(try await native.allPending().isEmpty)
    let other = try d.client(app: "org.example.two")
    let error = await caughtError { _ = try await other.allPending() }
    #expect(error?.reason == "TOO_MANY_CONNECTIONS", "\(String(describing: error))")
  }
}
