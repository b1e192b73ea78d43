import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

@Suite struct RecordCodecTests {
  // No NUL: the validator refuses it in every text field (protobuf-c strings are C strings).
  static let awkward = ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r\u{1F}\u{7F}", "ünïcødé 🔔 e\u{301}\"\u{301}", "</script>", ""]

  @Test(arguments: awkward)
  func recordsRoundTrip(text: String) throws {
    let codec = RecordCodec()
    var request = Fixtures.request(text.isEmpty ? "x" : text, title: text)
    request.content.userInfoJSON = #"{"k":"\#(text.isEmpty ? "v" : "w")"}"#
    let pending = Fixtures.pending(request, added: t0)
    let delivered = DeliveredNotification(request: request, delivered: t0, due: t0, missed: true)
    let event = Event(at: t0, kind: .delivered, identifiers: [text, "b", text], delivered: delivered, pending: pending, note: text)

    #expect(try codec.decode(PendingRequest.self, from: codec.encode(pending)) == pending)
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(delivered)) == delivered)
    let decoded = try codec.decode(EventBody.self, from: codec.eventBody(event)).event(cursor: 7, at: t0, kind: .delivered)
    var expected = event
    expected.cursor = 7
    #expect(decoded == expected)
  }

  @Test func aQuietDeliveryStaysQuietInTheStore() throws {
    let codec = RecordCodec()
    var delivered = DeliveredNotification(request: Fixtures.request("q", title: "q"), delivered: t0, due: t0)
    delivered.quiet = true
    #expect(try codec.decode(DeliveredNotification.self, from: codec.encode(delivered)).quiet)
    delivered.quiet = false
    #expect(try !codec.decode(DeliveredNotification.self, from: codec.encode(delivered)).quiet)
  }

  @Test func minimalEventBody() throws {
    let codec = RecordCodec()
    let body = codec.eventBody(Event(at: t0, kind: .pendingRemoved))
    #expect(try codec.decode(EventBody.self, from: body).event(cursor: 1, at: t0, kind: .pendingRemoved) == Event(cursor: 1, at: t0, kind: .pendingRemoved))
  }

  @Test func garbageBodyIsAnErrorNotACrash() {
    let codec = RecordCodec()
    #expect(throws: (any Error).self) { try codec.decode(PendingRequest.self, from: [0xFF, 0xFF, 0xFF]) }
  }
}
