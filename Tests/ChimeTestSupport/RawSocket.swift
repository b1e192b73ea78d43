import Glibc
public import ChimeCore

/// A bare Unix-socket connection for tests that send bytes a well-behaved client never would.
public final class RawSocket: @unchecked Sendable {
  public let fd: Int32

  public init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard rc == 0 else {
      close(fd)
      throw ChimeError(.unavailable, reason: "CONNECT_FAILED", "connect \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// Writes all bytes; false if the peer closed.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      offset += n
    }
    return true
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
