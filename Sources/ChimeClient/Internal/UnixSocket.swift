import ChimeCore
import Glibc

/// The few POSIX socket calls the client makes, with errors as `ChimeError`.
enum UnixSocket {
  /// A connected, blocking, close-on-exec stream socket.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SOCKET_PATH` for an empty path or one holding NUL,
  ///   `SOCKET_PATH_TOO_LONG` over `SocketPath.maxBytes`; UNAVAILABLE `DAEMON_UNAVAILABLE` when
  ///   nothing accepts the connection.
  static func connect(path: String) throws(ChimeError) -> Int32 {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, !bytes.contains(0) else {
      throw .invalidArgument("INVALID_SOCKET_PATH", "socket path \(path.debugDescription) is empty or holds a NUL byte")
    }
    guard bytes.count <= SocketPath.maxBytes else {
      throw .invalidArgument(
        "SOCKET_PATH_TOO_LONG",
        "socket path \(path) is \(bytes.count) bytes; a Unix socket path holds at most \(SocketPath.maxBytes)"
      )
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else {
      throw unavailable(path: path, errno: errno)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    var rc: Int32
    var failure: Int32 = 0
    repeat {
      rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      failure = rc == 0 ? 0 : errno
    } while failure == EINTR
    // A connect interrupted and retried may report that it already completed.
    guard failure == 0 || failure == EISCONN else {
      Glibc.close(fd)
      throw unavailable(path: path, errno: failure)
    }
    return fd
  }

  private static func unavailable(path: String, errno code: Int32) -> ChimeError {
    ChimeError(
      .unavailable,
      reason: "DAEMON_UNAVAILABLE",
      "cannot connect to chimed at \(path): \(errorText(code)); is the daemon running? Start it with `chimed`"
    )
  }

  /// Writes all of `bytes`, resuming after partial writes and EINTR. MSG_NOSIGNAL makes a closed
  /// peer an EPIPE error instead of a SIGPIPE.
  ///
  /// - Throws: UNAVAILABLE `CONNECTION_CLOSED` when the socket cannot take them.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(ChimeError) {
    let failure: Int32 = bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return 0 }
      var offset = 0
      while offset < raw.count {
        let n = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += n
      }
      return 0
    }
    if failure != 0 {
      throw ChimeError(.unavailable, reason: "CONNECTION_CLOSED", "cannot write to chimed: \(errorText(failure))")
    }
  }

  static func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
