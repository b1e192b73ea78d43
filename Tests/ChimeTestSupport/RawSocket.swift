public import ChimeCore
import ChimeSystem
import Glibc

/// A bare Unix-socket connection for tests that send bytes a well-behaved client never would.
public final class RawSocket: @unchecked Sendable {
  public let fd: Int32

  /// - Throws: what `UnixSocket.connect` throws (UNAVAILABLE `DAEMON_UNAVAILABLE` when nothing
  ///   listens at `path`).
  public init(path: String) throws(ChimeError) {
    fd = try UnixSocket.connect(path: path).rawValue
  }

  /// Writes all bytes; false if the peer closed.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    (try? UnixSocket.sendAll(FileDescriptor(rawValue: fd), bytes)) != nil
  }

  /// Reads what arrives within `timeout` seconds; returns (bytes, sawEOF).
  public func read(upTo max: Int = 1 << 20, timeout: Double) -> (bytes: [UInt8], eof: Bool) {
    var out: [UInt8] = []
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 65536)
    var remainingMillis = Int32(timeout * 1000)
    while out.count < max {
      let ready = poll(&pfd, 1, remainingMillis)
      if ready <= 0 { return (out, false) }
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n == 0 { return (out, true) }
      if n < 0 { return (out, errno != EINTR && errno != EAGAIN) }
      out.append(contentsOf: buffer[0..<n])
      remainingMillis = 50
    }
    return (out, false)
  }

  /// Waits until the peer closes, discarding data; true if it closed within `timeout`.
  public func waitForEOF(timeout: Double) -> Bool {
    var waited = 0.0
    while waited < timeout {
      let (_, eof) = read(timeout: 0.2)
      if eof { return true }
      waited += 0.2
    }
    return false
  }

  deinit { close(fd) }
}

/// Builds a length-prefixed frame from a raw body (for malformed-input tests).
public func lengthPrefixed(_ body: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
  let n = declaredLength ?? UInt32(body.count)
  return [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + body
}
