/// Random access to the bytes of a file being inspected, so an inspector never needs a whole
/// (up to 50 MB) file in memory.
///
/// Implementations must be bounds-checked: a read that does not lie wholly inside
/// `0..<count` throws instead of trapping. The inspectors only ask for ranges they have
/// already checked, so such a throw means the source changed underneath (e.g. the file shrank).
public protocol ByteSource {
  /// The number of bytes, fixed for the life of the source.
  var count: Int { get }

  /// Exactly `count` bytes starting at `offset`.
  ///
  /// - Throws: `ChimeError` with reason `MEDIA_READ_FAILED` when the range is outside the source
  ///   or the underlying read fails or comes back short.
  func read(at offset: Int, count: Int) throws(ChimeError) -> [UInt8]
}

extension ChimeError {
  /// The bytes could not be read (an I/O error, or the file changed size while being read).
  /// Not the file's fault as far as the inspectors can tell; the caller decides the status.
  /// Byte sources outside ChimeCore throw it too.
  public static func mediaReadFailed(_ message: String) -> ChimeError {
    ChimeError(.mediaReadFailed, message)
  }
}

/// Bytes already in memory: tests, fuzzing and small payloads.
public struct MemoryByteSource: ByteSource, Sendable {
  public let bytes: [UInt8]

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public var count: Int { bytes.count }

  public func read(at offset: Int, count n: Int) throws(ChimeError) -> [UInt8] {
    guard offset >= 0, n >= 0, offset <= bytes.count, n <= bytes.count - offset else {
      throw .mediaReadFailed("read of \(n) bytes at offset \(offset) is outside the \(bytes.count)-byte source")
    }
    return Array(bytes[offset..<(offset + n)])
  }
}
