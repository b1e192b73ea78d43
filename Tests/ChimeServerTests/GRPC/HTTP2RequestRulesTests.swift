@testable import ChimeGRPC
@testable import ChimeServer
import ChimeTestSupport
import Testing

/// RFC 9113 §8's request rules, fed fields and lengths by hand (tests/grpc/test_http2_rules.py
/// holds the same rules on the wire).
@Suite(.testTimeLimit) struct HTTP2RequestRulesTests {
  static let grpcHeaders = [(":method", "POST"), (":scheme", "http"), (":path", "/chime.v1.NotificationCenter/Add"),
                            (":authority", "localhost"), ("content-type", "application/grpc"), ("te", "trailers")]

  /// Feeds `fields` as one request header block; the first violation, or the one at its end.
  func request(_ fields: [(String, String)], endStream: Bool = false, rules: inout HTTP2RequestRules) -> HTTP2RequestRules.Violation? {
    for (name, value) in fields {
      if let violation = field(name, value, into: &rules) { return violation }
    }
    return rules.endHeaders(endStream: endStream)
  }

  func request(_ fields: [(String, String)], endStream: Bool = false) -> HTTP2RequestRules.Violation? {
    var rules = HTTP2RequestRules()
    return request(fields, endStream: endStream, rules: &rules)
  }

  func field(_ name: String, _ value: String, into rules: inout HTTP2RequestRules) -> HTTP2RequestRules.Violation? {
    Array(name.utf8).withUnsafeBufferPointer { n in
      Array(value.utf8).withUnsafeBufferPointer { v in rules.field(name: n, value: v) }
    }
  }

  @Test func aGRPCRequestPasses() {
    #expect(request(Self.grpcHeaders) == nil)
    #expect(request(Self.grpcHeaders + [("grpc-timeout", "1S"), ("chime-app", "org.example.app"), ("te", "Trailers")]) == nil)
  }

  @Test(arguments: ["localhost", "unix:/run/user/0/chime/chimed.sock", "unix:///tmp/x.sock", "%2Frun%2Fuser%2F0%2Fchimed.sock",
                    "", "[::1]:50051", "chimed.sock with spaces", "ünïcode"])
  func anyAuthorityPasses(_ authority: String) {
    let fields = Self.grpcHeaders.map { $0.0 == ":authority" ? ($0.0, authority) : $0 }
    #expect(request(fields) == nil)
    #expect(request(Self.grpcHeaders.filter { $0.0 != ":authority" }) == nil, "no :authority at all")
  }

  @Test func fieldNamesAreLowerCaseAndClean() {
    #expect(request(Self.grpcHeaders + [("X-TEST", "ok")])?.description.contains("lower case") == true)
    #expect(request(Self.grpcHeaders + [("Content-Type", "application/grpc")]) != nil)
    #expect(request(Self.grpcHeaders + [("x test", "ok")]) != nil)
    #expect(request(Self.grpcHeaders + [("x:test", "ok")]) != nil)
    #expect(request(Self.grpcHeaders + [("", "ok")]) != nil)
    #expect(request(Self.grpcHeaders + [("x-test", "a\r\nb")]) != nil)
    #expect(request(Self.grpcHeaders + [("x-test", "a\u{0}b")]) != nil)
    #expect(request(Self.grpcHeaders + [("x-test", " padded ")]) == nil, "whitespace around a regular value is kept")
  }

  @Test func pseudoHeadersComeFirstOnceAndKnown() {
    #expect(request([("x-test", "ok")] + Self.grpcHeaders)?.description.contains("after a regular field") == true)
    let pseudo = Self.grpcHeaders.filter { $0.0.hasPrefix(":") }
    for unknown in [(":test", "ok"), (":status", "200"), (":protocol", "websocket")] {
      #expect(request(pseudo + [unknown])?.description.contains("not a request pseudo-header") == true, "\(unknown)")
    }
    for name in [":method", ":scheme", ":path", ":authority"] {
      let value = Self.grpcHeaders.first { $0.0 == name }!.1
      let regular = Self.grpcHeaders.filter { !$0.0.hasPrefix(":") }
      #expect(request(pseudo + [(name, value)] + regular)?.description.contains("appears twice") == true, "\(name)")
    }
  }

  @Test func requiredPseudoHeadersAndTheirValues() {
    for name in [":method", ":scheme", ":path"] {
      #expect(request(Self.grpcHeaders.filter { $0.0 != name })?.description.contains("has no \(name)") == true, "\(name)")
    }
    #expect(request(Self.grpcHeaders.map { $0.0 == ":path" ? (":path", "") : $0 }) != nil, "empty :path")
    #expect(request(Self.grpcHeaders.map { $0.0 == ":path" ? (":path", "/a b") : $0 }) != nil)
    #expect(request(Self.grpcHeaders.map { $0.0 == ":method" ? (":method", "") : $0 }) != nil)
    #expect(request(Self.grpcHeaders.map { $0.0 == ":method" ? (":method", "PO ST") : $0 }) != nil)
    #expect(request(Self.grpcHeaders.map { $0.0 == ":scheme" ? (":scheme", "1http") : $0 }) != nil)
    #expect(request(Self.grpcHeaders.map { $0.0 == ":authority" ? (":authority", "a\nb") : $0 }) != nil)
    // CONNECT names an authority only.
    #expect(request([(":method", "CONNECT"), (":authority", "localhost:1")]) == nil)
    #expect(request([(":method", "CONNECT")]) != nil)
    #expect(request([(":method", "CONNECT"), (":authority", "localhost:1"), (":path", "/")]) != nil)
  }

  @Test(arguments: [("connection", "keep-alive"), ("keep-alive", "timeout=5"), ("proxy-connection", "keep-alive"),
                    ("transfer-encoding", "chunked"), ("upgrade", "h2c"), ("te", "trailers, deflate"), ("te", "gzip")])
  func connectionSpecificFieldsAreRefused(_ name: String, _ value: String) {
    #expect(request(Self.grpcHeaders.filter { $0.0 != "te" } + [(name, value)]) != nil)
  }

  @Test func contentLengthMustMatchTheBody() {
    var rules = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders + [("content-length", "8")], rules: &rules) == nil)
    #expect(rules.data(5) == nil)
    #expect(rules.endBody() != nil, "less than declared")
    #expect(rules.data(3) == nil)
    #expect(rules.endBody() == nil)
    #expect(rules.data(1) != nil, "more than declared")

    var empty = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders + [("content-length", "0")], endStream: true, rules: &empty) == nil)
    #expect(request(Self.grpcHeaders + [("content-length", "4")], endStream: true) != nil, "END_STREAM on the headers")
    #expect(request(Self.grpcHeaders + [("content-length", "1"), ("content-length", "1")]) != nil)
    #expect(request(Self.grpcHeaders + [("content-length", "-1")]) != nil)
    #expect(request(Self.grpcHeaders + [("content-length", "99999999999999999999")]) != nil)

    var unstated = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders, rules: &unstated) == nil)
    #expect(unstated.data(1 << 20) == nil)
    #expect(unstated.endBody() == nil)
  }

  @Test func trailersEndTheStreamAndHoldNoPseudoHeaders() {
    var rules = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders, rules: &rules) == nil)
    #expect(rules.beginTrailers(endStream: false) != nil)

    var pseudo = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders, rules: &pseudo) == nil)
    #expect(pseudo.beginTrailers(endStream: true) == nil)
    #expect(field("x-checksum", "1", into: &pseudo) == nil)
    #expect(field(":method", "POST", into: &pseudo) != nil)

    var length = HTTP2RequestRules()
    #expect(request(Self.grpcHeaders, rules: &length) == nil)
    #expect(length.beginTrailers(endStream: true) == nil)
    #expect(field("content-length", "0", into: &length) != nil)
  }

  @Test func streamIdentifiersBelowOneOpenedWereSkippedOrKnown() {
    var ids = HTTP2StreamIDs(maxGaps: 2)
    #expect(ids.headers(on: 1) == .opens)
    #expect(ids.headers(on: 5) == .opens)
    #expect(ids.headers(on: 3) == .skipped)
    #expect(ids.headers(on: 1) == .known, "trailers of a stream that existed")
    #expect(ids.headers(on: 5) == .known)
    #expect(ids.headers(on: 7) == .opens)
    #expect(ids.headers(on: 2) == .opens, "even identifiers are nghttp2's to judge")
    #expect(ids.headers(on: 13) == .opens)
    #expect(ids.headers(on: 9) == .skipped)
    #expect(ids.headers(on: 11) == .skipped)
    #expect(ids.headers(on: 17) == .opens)
    // Past two gaps the oldest is forgotten: stream 3 now reads as one that existed.
    #expect(ids.headers(on: 3) == .known)
    #expect(ids.headers(on: 15) == .skipped)

    var first = HTTP2StreamIDs()
    #expect(first.headers(on: 7) == .opens)
    #expect(first.headers(on: 1) == .skipped)
    #expect(first.headers(on: 5) == .skipped)
  }
}
