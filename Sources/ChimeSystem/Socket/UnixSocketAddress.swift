public import ChimeCore
import Glibc

/// A Unix-socket path checked to fit `sockaddr_un`: not empty, no NUL byte, at most
/// `SocketPath.maxBytes` (107) bytes. Every connect and bind in Chime goes through one, so no
/// path is ever cut short into another.
public struct UnixSocketAddress: Hashable, Sendable {
  /// The path, at most 107 bytes, no NUL.
  public let path: String

  /// - Throws: INVALID_ARGUMENT `INVALID_SOCKET_PATH` for an empty path or one holding NUL;
  ///   INVALID_ARGUMENT `SOCKET_PATH_TOO_LONG` for one over 107 bytes.
  public init(_ path: String) throws(ChimeError) {
    let bytes = path.utf8.count
    guard bytes > 0, !path.containsNUL else {
      throw ChimeError(.invalidSocketPath, "socket path \(path.debugDescription) is empty or holds a NUL byte")
    }
    guard bytes <= SocketPath.maxBytes else {
      throw ChimeError(
        .socketPathTooLong,
        "socket path \(path) is \(bytes) bytes; a Unix socket path holds at most \(SocketPath.maxBytes)"
      )
    }
    self.path = path
  }

  /// Calls `body` with the address as a `sockaddr` and its length.
  func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
  }

  /// The path a bound Unix socket `fd` listens on (a socket handed down by a service manager);
  /// nil when it is not a named Unix socket.
  public static func bound(to fd: Int32) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let rc = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard rc == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
    let path = withUnsafeBytes(of: &address.sun_path) { raw in
      String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
    return path.isEmpty ? nil : path
  }
}
