import ChimeCore

/// Splits a gRPC request body into its length-prefixed messages (a flag byte, a 4-byte
/// big-endian length, the message), whatever the DATA frames cut it into. Holds at most one
/// message of at most `maxMessageBytes`: a longer length prefix is refused as soon as it is
/// read, before its bytes arrive.
///
/// Messages taken out only move a read index; the bytes before it are dropped once they are at
/// least half of the buffer, so a stream whose frames always end inside a message (a partial
/// message always pending) holds about one message and one frame, not everything it carried.
struct GRPCMessageReader {
  let maxMessageBytes: Int
  private var buffer: [UInt8] = []
  private var start = 0

  /// Capacity kept once the buffer drains; a larger one (left by a big message) is released.
  static let retainedCapacity = 64 << 10

  init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

  /// True while part of a message has been read and not the rest.
  var hasPartialMessage: Bool { start < buffer.count }

  /// Bytes held: the unread ones and read ones not yet dropped.
  var storedByteCount: Int { buffer.count }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
      start = 0
    } else if start > 0 && start >= buffer.count / 2 {
      // Moving the unread half (or less) down costs no more than the bytes read since the
      // last move: linear in what the stream carries.
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next whole message, or nil until more bytes arrive.
  ///
  /// - Throws: UNIMPLEMENTED `COMPRESSION_UNSUPPORTED` for a compressed message (chimed offers
  ///   only `identity`), INTERNAL `GRPC_PROTOCOL_VIOLATION` for a flag byte that is neither 0
  ///   nor 1, RESOURCE_EXHAUSTED `FRAME_TOO_LARGE` for a message over the limit.
  mutating func next() throws(ChimeError) -> [UInt8]? {
    guard buffer.count - start >= 5 else { return nil }
    switch buffer[start] {
    case 0: break
    case 1:
      throw ChimeError(.compressionUnsupported, "compressed messages are not supported: chimed accepts grpc-encoding identity only")
    default:
      throw ChimeError(.grpcProtocolViolation, "a gRPC message's flag byte must be 0 or 1")
    }
    let length = Int(buffer[start + 1]) << 24 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 8 | Int(buffer[start + 4])
    guard length <= maxMessageBytes else {
      throw ChimeError(.frameTooLarge, "a \(length)-byte message is over chimed's limit of \(maxMessageBytes) bytes")
    }
    guard buffer.count - start - 5 >= length else { return nil }
    let message = Array(buffer[(start + 5)..<(start + 5 + length)])
    start += 5 + length
    return message
  }
}
