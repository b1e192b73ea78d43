public import ChimeCore
import CLinux
import Glibc

/// Connecting to and listening on Unix sockets, with addresses built by `UnixSocketAddress` (the
/// one place Chime fills one in). Descriptors are blocking and close-on-exec; the caller closes
/// them.
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

  /// A datagram socket bound at `path`, such as a service manager's `NOTIFY_SOCKET` (tests
  /// stand in for systemd with one).
  ///
  /// - Throws: as `listen` does.
  public static func bindDatagram(path: String) throws(ChimeError) -> FileDescriptor {
    let address = try UnixSocketAddress(path)
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw listenFailed(path: path, .current) }
    guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
      let failure = Errno.current
      Glibc.close(fd)
      throw listenFailed(path: path, failure)
    }
    return FileDescriptor(rawValue: fd)
  }

  /// Waits up to `millis` for `fd` to be readable (`poll(2)`); false on timeout.
  public static func waitReadable(_ fd: FileDescriptor, millis: Int32) -> Bool {
    var pfd = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&pfd, 1, millis)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }

  /// The next connection waiting on a listening socket, blocking until one comes (`accept(2)`,
  /// retried on EINTR, then made close-on-exec).
  ///
  /// - Throws: the `Errno` of `accept(2)` (EINVAL once the listener is shut down).
  public static func accept(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor {
    while true {
      let fd = Glibc.accept(listener.rawValue, nil, nil)
      if fd >= 0 {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(rawValue: fd)
      }
      if errno != EINTR { throw .current }
    }
  }

  /// The next connection queued on a non-blocking listening socket, itself non-blocking and
  /// close-on-exec (`accept4(2)`, retried on EINTR); nil when none is queued.
  ///
  /// - Throws: the `Errno` of `accept4(2)`: EMFILE/ENFILE when out of descriptors,
  ///   ECONNABORTED for a peer that left while queued.
  public static func acceptWaiting(_ listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
    while true {
      let fd = CLinux.accept4(listener.rawValue, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
      if fd >= 0 { return FileDescriptor(rawValue: fd) }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
      throw .current
    }
  }

  /// Makes `fd` non-blocking (`O_NONBLOCK`).
  public static func setNonBlocking(_ fd: FileDescriptor) throws(Errno) {
    let flags = fcntl(fd.rawValue, F_GETFL)
    guard flags >= 0, fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) == 0 else { throw .current }
  }

  /// Connects to `path` and hangs up: nil when something accepted, else why not
  /// (`Errno.connectionRefused`: a socket file nothing listens on; ENAMETOOLONG for a path that
  /// cannot be a socket address).
  public static func probe(path: String) -> Errno? {
    guard let address = try? UnixSocketAddress(path) else { return .nameTooLong }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .current }
    defer { Glibc.close(fd) }
    var failure: Int32
    repeat {
      failure = address.withSockaddr { Glibc.connect(fd, $0, $1) } == 0 ? 0 : errno
    } while failure == EINTR
    return failure == 0 || failure == EISCONN ? nil : Errno(failure)
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

  /// Receives what has arrived, up to `buffer.count` bytes, waiting for some (`recv(2)`, retried
  /// on EINTR). Returns how many; 0 when the peer has closed its side.
  ///
  /// - Throws: the `Errno` of `recv(2)` (ECONNRESET, EBADF after a close).
  public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    while true {
      let n = recv(fd.rawValue, buffer.baseAddress, buffer.count, 0)
      if n >= 0 { return n }
      if errno != EINTR { throw .current }
    }
  }

  /// Shuts the connection down both ways (`shutdown(2)`): a thread blocked receiving on it wakes
  /// up with 0, the peer sees the end. The descriptor stays open until closed.
  public static func shutdown(_ fd: FileDescriptor) {
    _ = Glibc.shutdown(fd.rawValue, Int32(SHUT_RDWR))
  }

  private static func unavailable(path: String, _ failure: Errno) -> ChimeError {
    ChimeError(.daemonUnavailable, "cannot connect to chimed at \(path): \(failure)" + DaemonDownAdvice.advice(unitsInstalled: userUnitsInstalled))
  }

  /// Whether Chime's socket unit is in one of systemd's user unit directories.
  static var userUnitsInstalled: Bool {
    DaemonDownAdvice.userUnitDirectories(environment: ProcessEnvironment.variables, home: ProcessEnvironment.homeDirectory)
      .contains { FileSystem.status($0 + "/" + DaemonDownAdvice.socketUnit) != nil }
  }

  private static func listenFailed(path: String, _ failure: Errno) -> ChimeError {
    ChimeError(.socketListenFailed, "cannot listen on \(path): \(failure)")
  }
}
