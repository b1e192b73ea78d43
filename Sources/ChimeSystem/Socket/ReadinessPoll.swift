import CLinux
import Glibc

/// An epoll instance that reports descriptors readable, each armed for one report at a time
/// (`EPOLLONESHOT`): after a report the descriptor stays registered but quiet until armed
/// again, so exactly one party reads it. Used by the client's one reply thread for all of a
/// process's connections.
public final class ReadinessPoll: Sendable {
  private let epoll: Int32

  /// - Throws: the `Errno` of `epoll_create1(2)` (EMFILE, ENOMEM).
  public init() throws(Errno) {
    let fd = chime_epoll_create1(Int32(CHIME_EPOLL_CLOEXEC))
    guard fd >= 0 else { throw .current }
    epoll = fd
  }

  deinit {
    close(epoll)
  }

  /// Arms `fd` for one report under `token`: registers it the first time (`added` false),
  /// re-arms it after. A descriptor already shut down is reported at once (EPOLLHUP).
  ///
  /// - Throws: the `Errno` of `epoll_ctl(2)`; ENOENT when it was removed meanwhile.
  public func arm(_ fd: FileDescriptor, token: UInt64, added: Bool) throws(Errno) {
    var event = chime_epoll_event(events: UInt32(CHIME_EPOLLIN | CHIME_EPOLLRDHUP | CHIME_EPOLLONESHOT), token: token)
    let op = added ? CHIME_EPOLL_CTL_MOD : CHIME_EPOLL_CTL_ADD
    guard chime_epoll_ctl(epoll, Int32(op), fd.rawValue, &event) == 0 else { throw .current }
  }

  /// Stops reporting `fd` (before it is closed: a closed descriptor's number can be reused).
  public func remove(_ fd: FileDescriptor) {
    var event = chime_epoll_event()
    _ = chime_epoll_ctl(epoll, Int32(CHIME_EPOLL_CTL_DEL), fd.rawValue, &event)
  }

  /// Blocks until at least one armed descriptor is readable (or hung up) and returns the
  /// tokens of those reported, at most `limit`. Interrupted waits are resumed.
  public func wait(limit: Int = 64) -> [UInt64] {
    var events = [chime_epoll_event](repeating: chime_epoll_event(), count: limit)
    while true {
      let n = chime_epoll_wait(epoll, &events, Int32(limit), -1)
      if n >= 0 { return events.prefix(Int(n)).map(\.token) }
      // EINTR: a signal; anything else (EBADF, EINVAL) cannot happen to a live instance.
      if errno != EINTR { preconditionFailure("epoll_wait failed: \(Errno.current)") }
    }
  }
}
