public import ChimeCore

/// Splits a byte stream into frames: feed it bytes as they arrive, in chunks of any size, and
/// take frames out with `next()`.
///
/// A length prefix over `maxFrameBytes` is rejected as soon as its four bytes are in, before any
/// of its body is buffered. After an error the decoder stays failed (the stream cannot be
/// resynced): `next()` throws the same error again and `append` drops its bytes.
///
/// Buffering is amortized O(n): consumed bytes are skipped with a read index and the buffer is
/// compacted only once at least half of it is consumed.
public struct FrameDecoder: Sendable {
  /// The largest frame body accepted, in bytes (the 4-byte prefix is not counted).
  public let maxFrameBytes: Int

  private var buffer: [UInt8] = []
  private var readIndex = 0
  private var failure: FramingError?

  /// Capacity kept after the buffer drains; a larger one (left by a big frame) is released.
  private static let retainedCapacity = 64 * 1024

  public init(maxFrameBytes: Int = Limits.maxFrameBytesDefault) {
    precondition(maxFrameBytes >= 0, "maxFrameBytes must not be negative")
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes appended and not yet returned as frames.
  public var bufferedByteCount: Int { buffer.count - readIndex }

  /// Bytes held: those not yet returned and those returned but not yet dropped.
  var storedByteCount: Int { buffer.count }

  /// Appends bytes read from the stream.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard failure == nil, !bytes.isEmpty else { return }
    if readIndex > 0, readIndex >= buffer.count / 2 {
      buffer.removeSubrange(0..<readIndex)
      readIndex = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Appends bytes read from the stream.
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// The next complete frame, or nil until more bytes arrive.
  ///
  /// - Throws: `FramingError` `.frameTooLarge` for a length prefix over the limit,
  ///   `.malformedFrame` for a body that is not a `chime.v1.Frame` or has no kind set.
  public mutating func next() throws(FramingError) -> Frame? {
    if let failure { throw failure }
    let available = buffer.count - readIndex
    guard available >= 4 else { return nil }
    let length = buffer.withUnsafeBufferPointer { b in
      Int(b[readIndex]) << 24 | Int(b[readIndex + 1]) << 16 | Int(b[readIndex + 2]) << 8 | Int(b[readIndex + 3])
    }
    guard length <= maxFrameBytes else {
      throw fail(.tooLarge(length: length, limit: maxFrameBytes))
    }
    guard available - 4 >= length else { return nil }
    let start = readIndex + 4
    let result = buffer.withUnsafeBytes { raw in
      Result { () throws(FramingError) in try FrameProto.decode(UnsafeRawBufferPointer(rebasing: raw[start..<start + length])) }
    }
    switch result {
    case .failure(let error):
      throw fail(error)
    case .success(let frame):
      readIndex = start + length
      if readIndex == buffer.count {
        buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
        readIndex = 0
      }
      return frame
    }
  }

  private mutating func fail(_ error: FramingError) -> FramingError {
    failure = error
    buffer = []
    readIndex = 0
    return error
  }
}
