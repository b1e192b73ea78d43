import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Testing

/// A gRPC call ends at its grpc-timeout with DEADLINE_EXCEEDED, whatever it is doing then, on
/// the daemon's clock (a manual one here: time passes when the test moves it).
@Suite(.testTimeLimit) struct GRPCDeadlineTests {
  @Test func aSubscribeStreamEndsAtItsDeadlineAndUnsubscribes() async throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let stream = h2.request(Method.subscribe.rawValue, messages: [try CallTable.subscribe.encodeRequest(nil)], headers: [("grpc-timeout", "2S")])
    let untimed = h2.request(Method.subscribe.rawValue, messages: [try CallTable.subscribe.encodeRequest(nil)])
    #expect(h2.pump(until: { [stream, untimed].allSatisfy { h2.responses[$0]?.messages.count == 1 } }))
    #expect(d.daemon.stats().subscribers == 2)
    d.advance(seconds: 1.5)
    h2.pump(timeout: 0.1)
    #expect(h2.responses[stream]?.ended == false, "ended before its deadline: \(String(describing: h2.responses[stream]))")
    d.advance(seconds: 0.6)
    let ended = h2.response(stream)
    #expect(ended.grpcStatus == StatusCode.deadlineExceeded.rawValue, "\(ended)")
    #expect(GRPCTransportTests().errorInfo(ended)?.reason == "DEADLINE_EXCEEDED", "\(ended)")
    try await waitUntil(within: 5) { d.daemon.stats().subscribers == 1 }
    // The stream with no deadline and the connection go on.
    #expect(h2.responses[untimed]?.ended == false)
    #expect(h2.response(h2.request(Method.getServerInfo.rawValue, messages: [[]])).grpcStatus == 0)
  }

  @Test func theTransportsOwnStreamsEndAtTheirDeadlineToo() throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    // grpc.health.v1.Health/Watch: HealthCheckRequest {} is an empty message.
    let watch = h2.request("/grpc.health.v1.Health/Watch", messages: [[]], headers: [("grpc-timeout", "500m")])
    #expect(h2.pump(until: { h2.responses[watch]?.messages.count == 1 }))
    d.advance(seconds: 0.5)
    #expect(h2.response(watch).grpcStatus == StatusCode.deadlineExceeded.rawValue, "\(h2.response(watch))")
  }

  @Test func aDeadlineGivenUpWithItsStreamLeavesTheOthersOnTime() throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let early = h2.request(Method.subscribe.rawValue, messages: [try CallTable.subscribe.encodeRequest(nil)], headers: [("grpc-timeout", "1S")])
    let late = h2.request(Method.subscribe.rawValue, messages: [try CallTable.subscribe.encodeRequest(nil)], headers: [("grpc-timeout", "3S")])
    #expect(h2.pump(until: { [early, late].allSatisfy { h2.responses[$0]?.messages.count == 1 } }))
    h2.cancel(early)
    h2.pump(timeout: 0.1)
    d.advance(seconds: 2)
    h2.pump(timeout: 0.1)
    #expect(h2.responses[late]?.ended == false)
    d.advance(seconds: 1)
    #expect(h2.response(late).grpcStatus == StatusCode.deadlineExceeded.rawValue)
  }
}
