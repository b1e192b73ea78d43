public import ChimeCore
import Glibc

/// Connecting to and listening on a Unix stream socket: the one place Chime builds a
/// `sockaddr_un`. Descriptors are blocking and close-on-exec; the caller closes them.
public enum UnixSocket {
  /// A connected stream socket.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SOCKET_PATH` / `SOCKET_PATH_TOO_LONG` for a path that
  ///   cannot be a socket address (see `UnixSocketAddress`); UNAVAILABLE `DAEMON_UNAVAILABLE`
  ///   when nothing accepts the connection (the message names the path and the errno text).
  public static func connect(path: String) throws(ChimeError) -> FileDescriptor {
    let address = try UnixSocketAddress(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw unavailable(path: path, .current) }
    var failure: Int32
    repeat {
      failure = address.withSockaddr { Glibc.connect(fd, $0, $1) } == 0 ? 0 : errno
    } while failure == EINTR
    // A connect interrupted and retried may report that it already completed.
    guard failure == 0 || failure == EISCONN else {
      Glibc.close(fd)
      throw unavailable(path: path, Errno(failure))
    }
    return FileDescriptor(rawValue: fd)
  }

  /// A socket bound to `path` and listening, with room for `backlog` connections not yet
  /// accepted. The socket file is created by the bind; removing it is the caller's.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_SOCKET_PATH` / `SOCKET_PATH_TOO_LONG` as `connect`
  ///   does; UNAVAILABLE `SOCKET_LISTEN_FAILED` when the socket cannot be made, bound (the path
  ///   is taken, its directory missing or not writable) or listened on.
  public static func listen(path: String, backlog: Int32 = 128) throws(ChimeError) -> FileDescriptor {
    let address = try UnixSocketAddress(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw listenFailed(path: path, .current) }
    guard address.withSockaddr({ bind(fd, $0, $1) }) == 0, Glibc.listen(fd, backlog) == 0 else {
      let failure = Errno.current
      Glibc.close(fd)
      throw listenFailed(path: path, failure)
    }
    return FileDescriptor(rawValue: fd)
  }

  /// True when something accepts connections at `path` (a live daemon, not a stale socket
  /// file); false for a path that cannot be a socket address.
  public static func isAccepting(path: String) -> Bool {
    do throws(ChimeError) {
      try connect(path: path).close()
      return true
    } catch {
      return false
    }
  }

  /// Sends all of `bytes`, resuming after partial sends and EINTR. MSG_NOSIGNAL makes a closed
  /// peer an EPIPE error instead of a SIGPIPE.
  ///
  /// - Throws: the `Errno` of `send(2)` (EPIPE, ECONNRESET when the peer is gone).
  public static func sendAll(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
    let failure: Int32 = bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return 0 }
      var offset = 0
      while offset < raw.count {
        let n = send(fd.rawValue, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += n
      }
      return 0
    }
    if failure != 0 { throw Errno(failure) }
  }

  private static func unavailable(path: String, _ failure: Errno) -> ChimeError {
    ChimeError(
      .unavailable,
      reason: "DAEMON_UNAVAILABLE",
      "cannot connect to chimed at \(path): \(failure); is the daemon running? Start it with `chimed`"
    )
  }

  private static func listenFailed(path: String, _ failure: Errno) -> ChimeError {
    ChimeError(.unavailable, reason: "SOCKET_LISTEN_FAILED", "cannot listen on \(path): \(failure)")
  }
}
