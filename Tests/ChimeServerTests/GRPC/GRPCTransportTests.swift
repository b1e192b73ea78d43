import ChimeConfig
import CNGHTTP2
import ChimeClient
import ChimeCore
@testable import ChimeGRPC
@testable import ChimeServer
import ChimeTestSupport
import ChimeWire
import Foundation
import Testing

/// gRPC on chimed's socket, through an nghttp2 client: the same router, limits and identity
/// rules as the native framing, on the same socket at the same time.
@Suite(.testTimeLimit) struct GRPCTransportTests {
  static let add = Method.add.rawValue
  static let subscribe = Method.subscribe.rawValue

  func addMessage(_ id: String, in seconds: Double = 600) throws -> [UInt8] {
    try CallTable.add.encodeRequest(.tea(id, in: seconds))
  }

  /// The reason and field path of a refusal's google.rpc.ErrorInfo, read from
  /// grpc-status-details-bin.
  func errorInfo(_ response: H2Client.Response) -> (code: Int64, reason: String, domain: String, field: String)? {
    guard var text = response.status["grpc-status-details-bin"] else { return nil }
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: text) else { return nil }
    var code: Int64 = 0
    var info: ArraySlice<UInt8> = []
    var status = ProtoReader(Array(data))
    while let (field, value) = status.next() {
      if field == 1, case .varint(let v) = value { code = Int64(v) }
      if field == 3, let any = value.slice {
        var reader = ProtoReader(any)
        while let (f, v) = reader.next() {
          if f == 2, let bytes = v.slice { info = bytes }
        }
      }
    }
    var reason = "", domain = "", fieldPath = ""
    var reader = ProtoReader(info)
    while let (f, v) = reader.next() {
      switch f {
      case 1: reason = v.string ?? ""
      case 2: domain = v.string ?? ""
      case 3:
        var entry = ProtoReader(v.slice ?? [])
        var key = "", value = ""
        while let (ef, ev) = entry.next() {
          if ef == 1 { key = ev.string ?? "" } else if ef == 2 { value = ev.string ?? "" }
        }
        if key == "field" { fieldPath = value }
      default: break
      }
    }
    return (code, reason, domain, fieldPath)
  }

  @Test func unaryCallsOverGRPCAndNativeFramingShareOneSocket() async throws {
    let d = try InProcessDaemon()
    let native = try d.client(app: "org.example.grpc")
    _ = try await native.add(.tea("native"))
    let h2 = try H2Client(path: d.socketPath)
    let added = h2.response(h2.request(Self.add, messages: [try addMessage("grpc")]))
    #expect(added.headers[":status"] == "200" && added.headers["content-type"] == "application/grpc")
    #expect(added.grpcStatus == 0, "\(added)")
    #expect(try added.messages.map { try CallTable.add.decodeResponse($0).pending.request.identifier } == ["grpc"])
    let listed = h2.response(h2.request(Method.getPending.rawValue, messages: [try CallTable.getPending.encodeRequest(PageRequest())]))
    let page = try CallTable.getPending.decodeResponse(listed.messages.first ?? [])
    #expect(Set(page.items.map(\.request.identifier)) == ["native", "grpc"])
    #expect(Set(try await native.allPending().map(\.request.identifier)) == ["native", "grpc"])
  }

  @Test func aRefusalCarriesItsReasonAndFieldInErrorInfo() throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let refused = h2.response(h2.request(Self.add, messages: [try CallTable.add.encodeRequest(.tea("x", in: 30, repeats: true))]))
    #expect(refused.grpcStatus == StatusCode.invalidArgument.rawValue)
    #expect(refused.status["grpc-message"]?.hasPrefix("a repeating time interval must be at least 60 seconds") == true)
    let info = errorInfo(refused)
    #expect(info?.code == Int64(StatusCode.invalidArgument.rawValue))
    #expect(info?.reason == "INVALID_INTERVAL" && info?.domain == "chime", "\(String(describing: info))")
    #expect(info?.field == "request.trigger.time_interval.seconds")

    let anonymous = h2.response(h2.request(Self.add, app: nil, messages: [try addMessage("y")]))
    #expect(errorInfo(anonymous)?.reason == "INVALID_APP_ID")
    let unknown = h2.response(h2.request("/chime.v1.NotificationCenter/Nope", messages: [[]]))
    #expect(unknown.grpcStatus == StatusCode.unimplemented.rawValue && errorInfo(unknown)?.reason == "UNKNOWN_METHOD")
    let json = h2.response(h2.request(Self.add, messages: [try addMessage("z")], contentType: "application/json"))
    #expect(json.headers[":status"] == "415")
  }

  @Test func grpcMessageIsPercentEncoded() {
    #expect(GRPCStatus.percentEncoded("50% caf\u{e9}\n") == "50%25 caf%C3%A9%0A")
    #expect(GRPCStatus.timeoutMillis("1500u") == 2 && GRPCStatus.timeoutMillis("3S") == 3000 && GRPCStatus.timeoutMillis("2H") == 7_200_000)
    #expect(GRPCStatus.timeoutMillis("123456789S") == nil && GRPCStatus.timeoutMillis("5") == nil && GRPCStatus.timeoutMillis("-1S") == nil)
  }

  @Test func grpcTimeoutIsTheCallsDeadlineOnTheDaemonsClock() throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let expired = h2.response(h2.request(Self.add, messages: [try addMessage("late")], headers: [("grpc-timeout", "0m")]))
    #expect(expired.grpcStatus == StatusCode.deadlineExceeded.rawValue, "\(expired)")
    // The deadline is measured on the daemon's clock (a manual one here, which does not move).
    let ample = h2.response(h2.request(Self.add, messages: [try addMessage("in-time")], headers: [("grpc-timeout", "1m")]))
    #expect(ample.grpcStatus == 0, "\(ample)")
  }

  @Test func maxConcurrentStreamsIsTheCallsPerConnectionLimit() async throws {
    let d = try InProcessDaemon { $0.limits.maxCallsPerConnection = 2 }
    let h2 = try H2Client(path: d.socketPath)
    let open = try [0, 1].map { _ in h2.request(Self.subscribe, messages: [try CallTable.subscribe.encodeRequest(nil)]) }
    #expect(h2.pump(until: { open.allSatisfy { h2.responses[$0]?.body.isEmpty == false } }))
    #expect(h2.remoteSetting(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS) == 2)
    // nghttp2 on the client side holds a third request back until a stream ends.
    let third = h2.request(Method.getServerInfo.rawValue, messages: [[]])
    h2.pump(timeout: 0.3)
    #expect(h2.responses[third]?.ended == false)
    h2.cancel(open[0])
    #expect(h2.response(third).grpcStatus == 0)
  }

  @Test func aStreamWhoseReaderStopsIsResetAndTheConnectionServesOn() async throws {
    let d = try InProcessDaemon { $0.limits.maxQueuedWriteBytes = 16 << 10 }
    // A window of 100 bytes per stream that the client never gives back.
    let h2 = try H2Client(path: d.socketPath, settings: [(Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), 100)],
                          autoWindowUpdate: false)
    let stream = h2.request(Self.subscribe, messages: [try CallTable.subscribe.encodeRequest(nil)])
    h2.pump(until: { h2.responses[stream]?.body.isEmpty == false })
    let native = try d.client(app: "org.example.grpc")
    var adds = 0
    while h2.responses[stream]?.ended != true && adds < 1000 {
      _ = try await native.add(.tea("t\(adds)", title: String(repeating: "x", count: 200)))
      adds += 1
      h2.pump(timeout: 0.001)
    }
    let cut = h2.response(stream)
    #expect(cut.resetCode == 0xb, "ENHANCE_YOUR_CALM, which gRPC clients read as RESOURCE_EXHAUSTED: \(cut)")
    #expect(adds > 16 && adds < 1000, "held by flow control until 16 KiB were queued: \(adds) adds")
    // The connection and the daemon serve on.
    #expect(h2.response(h2.request(Method.getServerInfo.rawValue, messages: [[]])).grpcStatus == 0)
    #expect(try await native.allPending().count == adds)
  }

  /// Adds made until the first of `streams` Subscribe streams on one connection that never
  /// gives back flow-control window is reset.
  func addsUntilAHeldStreamIsReset(_ d: InProcessDaemon, app: String, streams count: Int) async throws -> Int {
    let h2 = try H2Client(path: d.socketPath, settings: [(Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), 100)],
                          autoWindowUpdate: false)
    let streams = try (0..<count).map { _ in h2.request(Self.subscribe, app: app, messages: [try CallTable.subscribe.encodeRequest(nil)]) }
    h2.pump(until: { streams.allSatisfy { h2.responses[$0]?.body.isEmpty == false } })
    let native = try d.client(app: app)
    var adds = 0
    while !streams.contains(where: { h2.responses[$0]?.ended == true }) && adds < 1000 {
      _ = try await native.add(.tea("t\(adds)", title: String(repeating: "x", count: 200)))
      adds += 1
      h2.pump(timeout: 0.001)
    }
    h2.pump(until: { streams.contains { h2.responses[$0]?.ended == true } })
    #expect(streams.contains { h2.responses[$0]?.resetCode == 0xb })
    return adds
  }

  @Test func theWriteLimitHoldsForAConnectionsStreamsTogether() async throws {
    let d = try InProcessDaemon { $0.limits.maxQueuedWriteBytes = 16 << 10 }
    let alone = try await addsUntilAHeldStreamIsReset(d, app: "org.example.one", streams: 1)
    let together = try await addsUntilAHeldStreamIsReset(d, app: "org.example.two", streams: 2)
    // Two streams each get every event: together they reach the connection's limit in about
    // half the adds one stream needs to reach it alone.
    #expect(together * 10 < alone * 7, "one stream reset after \(alone) adds, one of two after \(together)")
  }

  @Test func cancellingASubscribeStreamUnsubscribes() async throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let stream = h2.request(Self.subscribe, messages: [try CallTable.subscribe.encodeRequest(nil)])
    #expect(h2.pump(until: { h2.responses[stream]?.messages.count == 1 }))
    #expect(d.daemon.stats().subscribers == 1)
    h2.cancel(stream)
    try await waitUntil(within: 5) { d.daemon.stats().subscribers == 0 }
  }

  @Test func shutdownSendsGoAwayAndEndsStreamsUnavailable() async throws {
    let d = try InProcessDaemon()
    let h2 = try H2Client(path: d.socketPath)
    let stream = h2.request(Self.subscribe, messages: [try CallTable.subscribe.encodeRequest(nil)])
    #expect(h2.pump(until: { h2.responses[stream]?.messages.count == 1 }))
    let stopped = Thread { d.stop() }
    stopped.start()
    let ended = h2.response(stream)
    #expect(ended.grpcStatus == StatusCode.unavailable.rawValue && errorInfo(ended)?.reason == "SHUTTING_DOWN", "\(ended)")
    #expect(h2.pump(until: { h2.goAwayCode != nil }))
    #expect(h2.goAwayCode == 0)
    h2.pump(until: { h2.closed })
    #expect(h2.closed, "chimed closed the connection once its streams were over")
  }
}
