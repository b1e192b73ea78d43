import ChimeCore
import ChimeSystem
import Glibc

/// Listens on a Unix socket and hands each accepted peer to `onAccept`. Loop thread only.
///
/// It accepts for itself (a poll handle on the listening descriptor) rather than through
/// `uv_listen`, because of what happens when the process is out of descriptors. libuv's answer
/// to EMFILE is to close a reserve descriptor, accept and drop everything queued, then reopen
/// the reserve; when another thread (the work pool reading a peer's /proc entry) takes the
/// freed number first, the reserve is gone, and from then on every queued peer makes libuv
/// retry `accept` in a loop that never yields: the loop thread spins and nobody is answered.
/// Here, running out pauses accepting for `backoffMillis` instead. Peers wait in the backlog
/// (their `connect` already succeeded) and are served once descriptors are free again;
/// connected clients go on being served meanwhile.
final class UnixListener {
  /// How long accepting pauses after the process ran out of descriptors (or memory for one).
  static let backoffMillis: UInt64 = 100
  /// Accepted in one wake-up at most, so a flood cannot hold the loop from other work.
  static let acceptsPerWakeup = 64

  private let loop: EventLoop
  private let fd: FileDescriptor
  private let onAccept: (StreamSocket) -> Void
  private let onPause: (Errno) -> Void
  private var poll: LoopPoll?
  private var backoff: LoopTimer?
  private var isClosed = false

  /// Binds `path` (which must be free: see `SocketFile.claim`) and starts accepting.
  /// `onPause` is told each time accepting pauses for want of descriptors.
  convenience init(loop: EventLoop, path: String, backlog: Int32 = 128,
                   onPause: @escaping (Errno) -> Void = { _ in },
                   onAccept: @escaping (StreamSocket) -> Void) throws(ChimeLoopError) {
    try Self.checkAddress(path)
    let fd: FileDescriptor
    do throws(ChimeError) {
      fd = try UnixSocket.listen(path: path, backlog: backlog)
    } catch {
      throw ChimeLoopError("listen on \(path): \(error.message)")
    }
    try self.init(loop: loop, fd: fd, what: path, onPause: onPause, onAccept: onAccept)
  }

  /// Serves a socket that is already bound and listening (socket activation: the service
  /// manager made it and passed it down). The listener takes ownership of `fd`.
  convenience init(loop: EventLoop, listening fd: Int32,
                   onPause: @escaping (Errno) -> Void = { _ in },
                   onAccept: @escaping (StreamSocket) -> Void) throws(ChimeLoopError) {
    try self.init(loop: loop, fd: FileDescriptor(rawValue: fd), what: "the inherited socket (fd \(fd))",
                  onPause: onPause, onAccept: onAccept)
  }

  private init(loop: EventLoop, fd: FileDescriptor, what: String, onPause: @escaping (Errno) -> Void,
               onAccept: @escaping (StreamSocket) -> Void) throws(ChimeLoopError) {
    self.loop = loop
    self.fd = fd
    self.onAccept = onAccept
    self.onPause = onPause
    do throws(Errno) {
      try UnixSocket.setNonBlocking(fd)
    } catch {
      fd.close()
      throw ChimeLoopError("listen on \(what): \(error)")
    }
    do throws(ChimeLoopError) {
      poll = try LoopPoll(loop: loop, fd: fd.rawValue) { [unowned self] _ in acceptWaiting() }
    } catch {
      fd.close()
      throw ChimeLoopError("listen on \(what): \(error.description)")
    }
    backoff = LoopTimer(loop: loop) { [unowned self] in resume() }
    poll?.watch(.readable)
  }

  /// Refuses a path a Unix socket address cannot hold whole (empty, NUL, over 107 bytes), with
  /// `UnixSocketAddress`'s words.
  static func checkAddress(_ path: String) throws(ChimeLoopError) {
    do throws(ChimeError) {
      _ = try UnixSocketAddress(path)
    } catch {
      throw ChimeLoopError(error.message)
    }
  }

  /// Accepts what is queued, up to `acceptsPerWakeup` (the poll fires again for the rest).
  private func acceptWaiting() {
    for _ in 0..<Self.acceptsPerWakeup where !isClosed {
      do throws(Errno) {
        guard let peer = try UnixSocket.acceptWaiting(fd) else { return }
        if let socket = StreamSocket.adopting(peer, loop: loop) { onAccept(socket) }
      } catch {
        switch error.code {
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          return pause(error)
        default:
          // ECONNABORTED, EPROTO, EPERM…: that one peer is gone; the next may be fine.
          continue
        }
      }
    }
  }

  private func pause(_ error: Errno) {
    poll?.watch([])
    backoff?.arm(afterMillis: Self.backoffMillis)
    onPause(error)
  }

  private func resume() {
    guard !isClosed else { return }
    poll?.watch(.readable)
  }

  /// Stops accepting and closes the listening socket (peers still queued see it close).
  func close() {
    guard !isClosed else { return }
    isClosed = true
    poll?.close()
    poll = nil
    backoff?.close()
    backoff = nil
    fd.close()
  }
}
