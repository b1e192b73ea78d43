import ChimeCore
import Testing
@testable import ChimeWire

/// Calls and plain replies are written field by field (`FrameProto.encode`): byte for byte what
/// protobuf-c writes for the same frame, and read back as the same frame.
@Suite struct FrameProtoTests {
  static let payloads: [[UInt8]] = [[], [0], Array(0..<127), Array(repeating: 0xab, count: 128), Array(repeating: 7, count: 70_000)]
  static let ids: [UInt64] = [0, 1, 127, 128, 300, UInt64(UInt32.max) + 1, .max]

  static var frames: [Frame] {
    var frames: [Frame] = []
    let headers = [
      CallHeader(method: "/chime.v1.NotificationCenter/Add", appID: "org.example.tea"),
      CallHeader(method: "", appID: ""),
      CallHeader(method: "/m", appID: String(repeating: "é", count: 100), deadline: Instant(unixMillis: 1_800_000_000_123)),
      CallHeader(method: "/m", appID: "a", deadline: Instant(unixMillis: -5)),
      CallHeader(method: "/m", appID: "a", deadline: Instant(unixMillis: 1)),
    ]
    for id in ids {
      for payload in payloads {
        for header in headers { frames.append(.call(id: id, header, payload: payload)) }
        frames.append(.reply(id: id, payload: payload, endOfStream: false, status: nil))
        frames.append(.reply(id: id, payload: payload, endOfStream: true, status: nil))
      }
    }
    return frames
  }

  @Test func callsAndRepliesAreTheBytesProtobufCWrites() throws {
    for frame in Self.frames {
      let written = FrameProto.encode(frame)
      #expect(written == FrameProto.encodeWithProtobufC(frame), "\(frame)")
      var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
      decoder.append(written)
      #expect(try decoder.next() == frame)
    }
  }

  /// A header string with a NUL goes through protobuf-c, which cuts it there (as before).
  @Test func aHeaderWithANULIsLeftToProtobufC() {
    let frame = Frame.call(id: 1, CallHeader(method: "/m", appID: "org.a\0x"), payload: [1])
    #expect(FrameProto.encode(frame) == FrameProto.encodeWithProtobufC(frame))
  }
}
