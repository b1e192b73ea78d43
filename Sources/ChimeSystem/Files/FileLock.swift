import Glibc

/// An exclusive `flock(2)` on a small file, held while the descriptor is open. The kernel drops
/// it when the holder exits, however it exits, so a lock left by a killed process is never
/// stale. The holder's pid is written into the file for messages only; ownership is the lock.
public final class FileLock: @unchecked Sendable {
  /// Where the lock lives.
  public let path: String
  private var descriptor: FileDescriptor?

  private init(path: String, descriptor: FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Why a lock could not be taken.
  public enum Failure: Error, Sendable, Equatable {
    /// Another open file description holds it; `pid` is what the holder wrote, if readable.
    case held(pid: Int32?)
    /// The file could not be opened or locked.
    case failed(Errno)
  }

  /// Opens (creating, mode 0600) `path` and takes the lock, waiting at most `patience`
  /// milliseconds for a holder to let go.
  ///
  /// Why wait at all: a `flock` belongs to the open file description, and a child spawned by
  /// any thread of the holder shares it from the clone until its `exec` closes the
  /// close-on-exec descriptor. A daemon that stops and starts again in one process (a restart
  /// in tests, an embedding host) could otherwise be refused by its own dying lock. A real
  /// second holder is still refused, only a moment later.
  ///
  /// - Throws: `.held` when another process (or another open of the file in this one) holds it;
  ///   `.failed` with the `Errno` of `open(2)` or `flock(2)`.
  public static func acquire(_ path: String, patience milliseconds: Int = 250) throws(Failure) -> FileLock {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { throw .failed(.current) }
    var waited = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      if errno == EWOULDBLOCK && waited < milliseconds {
        usleep(10_000)
        waited += 10
        continue
      }
      let failure: Failure = errno == EWOULDBLOCK ? .held(pid: readPID(fd)) : .failed(.current)
      Glibc.close(fd)
      throw failure
    }
    let text = Array("\(getpid())\n".utf8)
    if ftruncate(fd, 0) == 0 {
      _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
    return FileLock(path: path, descriptor: FileDescriptor(rawValue: fd))
  }

  /// Lets go of the lock (closing the descriptor). The file stays: unlinking it would let a
  /// waiter lock an inode that a third process can no longer find.
  public func release() {
    descriptor?.close()
    descriptor = nil
  }

  private static func readPID(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 16)
    let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return nil }
    let text = String(decoding: buffer[..<n], as: UTF8.self).split(whereSeparator: { $0 == "\n" }).first
    return text.flatMap { Int32($0) }
  }
}
