import ChimeCore
@testable import ChimeGRPC
@testable import ChimeServer
import Testing

/// The gRPC request body reader: messages whole whatever the frames cut them into, with a
/// buffer bounded by one message and one frame however long the stream runs.
@Suite struct GRPCMessageReaderTests {
  /// `count` messages of `size` bytes each (byte i of message n is n + i), length-prefixed.
  func body(count: Int, size: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count * (size + 5))
    for n in 0..<count {
      out += [0, UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)]
      out += (0..<size).map { UInt8(truncatingIfNeeded: n + $0) }
    }
    return out
  }

  @Test func aStreamWhoseFramesAlwaysEndInsideAMessageKeepsItsBufferSmall() throws {
    // 16 KiB frames of ~10 KB messages: after every frame part of a message is pending, which
    // is when a buffer that is never compacted grows with everything the stream carried.
    let size = 10_000, frame = 16 << 10, count = 500
    let stream = body(count: count, size: size)
    var reader = GRPCMessageReader(maxMessageBytes: 1 << 20)
    var read = 0
    var largest = 0
    var offset = 0
    while offset < stream.count {
      let end = min(offset + frame, stream.count)
      stream[offset..<end].withUnsafeBytes { reader.append($0) }
      offset = end
      #expect(reader.hasPartialMessage || offset == stream.count)
      while let message = try reader.next() {
        #expect(message.count == size && message.first == UInt8(truncatingIfNeeded: read) && message.last == UInt8(truncatingIfNeeded: read + size - 1))
        read += 1
      }
      largest = max(largest, reader.storedByteCount)
    }
    #expect(read == count)
    #expect(!reader.hasPartialMessage)
    // ~5 MB carried; held at most: the unread rest of a message, the half already read, one frame.
    #expect(largest <= 2 * (size + 5) + frame, "the reader held \(largest) bytes of a \(stream.count)-byte stream")
  }

  @Test func aMessageSplitIntoSingleBytesIsReadWhole() throws {
    let stream = body(count: 3, size: 300)
    var reader = GRPCMessageReader(maxMessageBytes: 1 << 20)
    var messages: [[UInt8]] = []
    for byte in stream {
      [byte].withUnsafeBytes { reader.append($0) }
      while let message = try reader.next() { messages.append(message) }
    }
    #expect(messages == (0..<3).map { n in (0..<300).map { UInt8(truncatingIfNeeded: n + $0) } })
    #expect(reader.storedByteCount <= 2 * 305)
  }

  @Test func aLengthOverTheLimitIsRefusedBeforeItsBytesArrive() {
    var reader = GRPCMessageReader(maxMessageBytes: 100)
    ([0, 0, 0, 0, 101] as [UInt8]).withUnsafeBytes { reader.append($0) }
    #expect(throws: ChimeError.self) { try reader.next() }
  }
}
