public import ChimeCore
import Glibc

/// A regular file the caller has already opened (once, without following symlinks), read with
/// `pread(2)` so the file offset is never moved and the same descriptor can be inspected and
/// then copied or linked into the store: the inspected bytes are the stored bytes.
///
/// The source does not own the descriptor and never closes it.
public struct FileDescriptorByteSource: ByteSource, Sendable {
  /// The descriptor read from; not owned.
  public let fileDescriptor: Int32
  /// The bytes the source spans: the file's size when the source was made.
  public let count: Int

  /// Takes the size from `fstat(2)`.
  ///
  /// - Throws: `ATTACHMENT_INVALID_URL` (INVALID_ARGUMENT) when the descriptor is not a regular
  ///   file; `MEDIA_READ_FAILED` (INTERNAL) when `fstat` fails.
  public init(fileDescriptor: Int32) throws(ChimeError) {
    var st = stat()
    guard fstat(fileDescriptor, &st) == 0 else {
      throw .mediaReadFailed("fstat failed (errno \(errno))")
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      throw ChimeError(.attachmentInvalidURL, "not a regular file")
    }
    guard st.st_size >= 0, let size = Int(exactly: st.st_size) else {
      throw .mediaReadFailed("file size \(st.st_size) is not usable")
    }
    self.fileDescriptor = fileDescriptor
    self.count = size
  }

  /// Uses a size the caller already knows (from its own `fstat`).
  public init(fileDescriptor: Int32, count: Int) {
    self.fileDescriptor = fileDescriptor
    self.count = max(0, count)
  }

  /// Exactly `n` bytes at `offset`.
  ///
  /// - Throws: `MEDIA_READ_FAILED` (INTERNAL) for a range outside the file, a failed `pread`, or
  ///   a file that ends early (it shrank while being read).
  public func read(at offset: Int, count n: Int) throws(ChimeError) -> [UInt8] {
    guard offset >= 0, n >= 0, offset <= count, n <= count - offset else {
      throw .mediaReadFailed("read of \(n) bytes at offset \(offset) is outside the \(count)-byte file")
    }
    if n == 0 { return [] }
    var buffer = [UInt8](repeating: 0, count: n)
    var done = 0
    var failure: Int32 = 0
    var shortRead = false
    buffer.withUnsafeMutableBytes { raw in
      while done < n {
        let got = pread(fileDescriptor, raw.baseAddress! + done, n - done, off_t(offset + done))
        if got < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if got == 0 {
          shortRead = true
          return
        }
        done += got
      }
    }
    if failure != 0 {
      throw .mediaReadFailed("read failed at offset \(offset + done) (errno \(failure))")
    }
    if shortRead {
      throw .mediaReadFailed("the file ended at offset \(offset + done), before its size of \(count) bytes: it changed while being read")
    }
    return buffer
  }
}
