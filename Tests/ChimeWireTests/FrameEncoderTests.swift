import ChimeTestSupport
import ChimeCore
import ChimeWire
import Testing

@Suite struct FrameEncoderTests {
  static let frames: [Frame] = [
    .call(id: 1, CallHeader(method: Method.add.rawValue, appID: "org.example.tea", deadline: Instant(unixMillis: 1_800_000_000_000)), payload: [1, 2, 3]),
    .call(id: .max, CallHeader(method: "", appID: ""), payload: []),
    .cancel(id: 7),
    .cancel(id: 0),
    .reply(id: 3, payload: Array(repeating: 0xAB, count: 70_000), endOfStream: false, status: nil),
    .reply(id: 4, payload: [], endOfStream: true, status: ChimeError(.invalidArgument, reason: "INVALID_BADGE", "badge must be 0 or more", field: "request.content.badge")),
    .reply(id: 5, payload: [], endOfStream: true, status: ChimeError(StatusCode(rawValue: 99), reason: "", "from the future")),
  ]

  @Test(arguments: frames)
  func roundTrip(_ frame: Frame) throws {
    var decoder = FrameDecoder()
    decoder.append(FrameEncoder.encode(frame))
    #expect(try decoder.next() == frame)
    #expect(try decoder.next() == nil)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func lengthPrefixIsBigEndianBodyLength() {
    let bytes = FrameEncoder.encode(.reply(id: 1, payload: Array(repeating: 0, count: 300), endOfStream: true, status: nil))
    let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    #expect(length == bytes.count - 4)
  }

  @Test func cancelMatchesHandWrittenProtobuf() {
    // Frame { call_id: 7, cancel: {} } is field 1 varint 7, field 3 empty message.
    #expect(FrameEncoder.encode(.cancel(id: 7)) == ProtoWriter.framed([0x08, 0x07, 0x1A, 0x00]))
  }

  @Test func okStatusOnTheWireDecodesToNil() throws {
    let body = ProtoWriter.message { f in
      f.field(1, varint: 9)
      f.field(4) { r in
        r.field(2, varint: 1)
        r.field(3) { s in s.field(2, string: "all good") }  // code 0 with a message
      }
    }
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(body))
    #expect(try decoder.next() == .reply(id: 9, payload: [], endOfStream: true, status: nil))
  }

  @Test func okChimeErrorEncodesAsOK() throws {
    var decoder = FrameDecoder()
    decoder.append(FrameEncoder.encode(.reply(id: 2, payload: [1], endOfStream: true, status: ChimeError(.ok, reason: "", "fine"))))
    #expect(try decoder.next() == .reply(id: 2, payload: [1], endOfStream: true, status: nil))
  }

  @Test func zeroDeadlineMeansNone() throws {
    let body = ProtoWriter.message { f in
      f.field(1, varint: 1)
      f.field(2) { c in c.field(1, string: "/m") }
    }
    var decoder = FrameDecoder()
    decoder.append(ProtoWriter.framed(body))
    #expect(try decoder.next() == .call(id: 1, CallHeader(method: "/m", appID: "", deadline: nil), payload: []))
  }
}
