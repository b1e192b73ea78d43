import ChimeCore
import Foundation
import Testing
@testable import ChimeStore

@Suite struct RecordCodecTests {
  static let awkward = ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r\u{0}\u{1F}\u{7F}", "ünïcødé 🔔 e\u{301}\"\u{301}", "</script>", ""]

  @Test(arguments: awkward)
  func eventBodyRoundTrips(text: String) throws {
    let codec = RecordCodec()
    var request = Fixtures.request(text.isEmpty ? "x" : text, title: text)
    request.content.userInfoJSON = #"{"k":"\#(text.isEmpty ? "v" : "w")"}"#
    let pending = Fixtures.pending(request, added: t0)
    let delivered = DeliveredNotification(request: request, delivered: t0, due: t0, missed: true)
    let event = Event(at: t0, kind: .delivered, identifiers: [text, "b", text], delivered: delivered, pending: pending, note: text)

    for body in [try codec.eventBody(event), try codec.eventBody(event, pendingJSON: codec.encode(pending), deliveredJSON: codec.encode(delivered))] {
      let decoded = try codec.decode(EventBody.self, from: body).event(cursor: 7, at: t0, kind: .delivered)
      var expected = event
      expected.cursor = 7
      #expect(decoded == expected)
      #expect(try JSONSerialization.jsonObject(with: Data(body.utf8)) is [String: Any])
    }
  }

  @Test func minimalEventBody() throws {
    let codec = RecordCodec()
    let body = try codec.eventBody(Event(at: t0, kind: .pendingRemoved))
    #expect(body == #"{"identifiers":[]}"#)
    #expect(try codec.decode(EventBody.self, from: body).event(cursor: 1, at: t0, kind: .pendingRemoved) == Event(cursor: 1, at: t0, kind: .pendingRemoved))
  }
}
