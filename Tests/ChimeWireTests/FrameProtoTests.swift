import ChimeCore
import ChimeTestSupport
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

/// Calls and plain replies are also read field by field (`FrameProto.readCommon`); whatever that
/// reads must be what protobuf-c reads, and whatever it does not read is left to protobuf-c.
extension FrameProtoTests {
  @Test func callsAndRepliesAreReadWithoutProtobufC() throws {
    for frame in Self.frames {
      let body = Array(FrameProto.encode(frame).dropFirst(4))
      #expect(body.withUnsafeBytes { FrameProto.readCommon($0) } == frame, "\(frame)")
    }
  }

  /// Frames cut, extended, with bytes changed or fields repeated, swapped or unknown: where the
  /// field-by-field reader takes one, protobuf-c reads the same frame from it.
  @Test func whatTheReaderTakesProtobufCReadsTheSame() throws {
    var generator = SplitMix64(seed: 0x5eed_f4a3e)
    var read = 0, left = 0
    let bases = Self.frames.filter { frame in
      if case .call(_, _, let payload) = frame { return payload.count < 200 }
      if case .reply(_, let payload, _, _) = frame { return payload.count < 200 }
      return false
    }.map { Array(FrameProto.encode($0).dropFirst(4)) }
    for _ in 0..<20_000 {
      var body = bases[Int(generator.next() % UInt64(bases.count))]
      for _ in 0...(generator.next() % 3) { Self.mutate(&body, &generator) }
      let fast = body.withUnsafeBytes { FrameProto.readCommon($0) }
      let slow = body.withUnsafeBytes { raw in Result { () throws(FramingError) in try FrameProto.decodeWithProtobufC(raw) } }
      if let fast {
        read += 1
        #expect(try slow.get() == fast, "\(body)")
      } else {
        left += 1
      }
      // Either way, decode answers what protobuf-c answers.
      let decoded = body.withUnsafeBytes { raw in Result { () throws(FramingError) in try FrameProto.decode(raw) } }
      #expect(decoded == slow, "\(body)")
    }
    #expect(read > 1_000 && left > 1_000, "both paths were exercised: \(read) read, \(left) left to protobuf-c")
  }

  private static func mutate(_ body: inout [UInt8], _ g: inout SplitMix64) {
    let at = body.isEmpty ? 0 : Int(g.next() % UInt64(body.count))
    switch g.next() % 7 {
    case 0 where !body.isEmpty: body[at] = UInt8(truncatingIfNeeded: g.next())
    case 1 where !body.isEmpty: body[at] ^= 1 << UInt8(g.next() % 8)
    case 2: body = Array(body.prefix(at))
    case 3: body.insert(UInt8(truncatingIfNeeded: g.next()), at: at)
    case 4: body += body.prefix(Int(g.next() % 8))  // a field, or part of one, again
    case 5: body += [0x1a, 0x00]  // a cancel after the call or reply
    case 6: body += [0x22, 0x04, 0x1a, 0x02, 0x08, 0x05]  // a reply with a status
    default: break
    }
  }
}
