import CLinux
import Glibc

/// An open file descriptor and the few calls made on one. A value, not an owner: whoever opened
/// it calls `close()` once. Every call retries on EINTR; a failure throws its `Errno`.
public struct FileDescriptor: Hashable, Sendable {
  /// The descriptor number.
  public let rawValue: Int32

  /// Wraps a descriptor opened elsewhere (its owner still closes it).
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Creates `path`, which must not exist yet, read-write with `mode` (close-on-exec).
  ///
  /// - Throws: the `Errno` of `open(2)` (EEXIST when the name is taken).
  public static func createNew(_ path: String, mode: UInt32) throws(Errno) -> FileDescriptor {
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode))
    guard fd >= 0 else { throw .current }
    return FileDescriptor(rawValue: fd)
  }

  /// Closes the descriptor (errors ignored: there is nothing left to do with it).
  public func close() { _ = Glibc.close(rawValue) }

  /// A second descriptor on the same open file (`dup(2)`); the caller closes it.
  ///
  /// - Throws: the `Errno` of `dup(2)` (EMFILE when the process has no descriptor left).
  public func duplicate() throws(Errno) -> FileDescriptor {
    let fd = dup(rawValue)
    guard fd >= 0 else { throw .current }
    return FileDescriptor(rawValue: fd)
  }

  /// `fsync(2)`: the file's data and metadata are on disk when it returns.
  ///
  /// - Throws: the `Errno` of `fsync(2)`.
  public func sync() throws(Errno) {
    guard fsync(rawValue) == 0 else { throw .current }
  }

  /// Starts writing `length` bytes at `offset` back to disk and, when `wait` is set, waits
  /// until they are written (`sync_file_range(2)`): a big copy flushed as it goes never leaves
  /// a large dirty backlog for another file's fsync to wait behind. Not a durability
  /// guarantee (no metadata, no disk cache flush): `sync()` at the end still is one. Errors are
  /// ignored: the final `sync()` reports any that matter.
  public func writeBack(offset: Int, length: Int, wait: Bool) {
    let flags = wait
      ? CHIME_SYNC_FILE_RANGE_WAIT_BEFORE | CHIME_SYNC_FILE_RANGE_WRITE | CHIME_SYNC_FILE_RANGE_WAIT_AFTER
      : CHIME_SYNC_FILE_RANGE_WRITE
    _ = sync_file_range(rawValue, offset, length, UInt32(flags))
  }

  /// Reads up to `buffer.count` bytes at `offset` with `pread(2)` (the file offset does not
  /// move). Returns how many were read: fewer at the end of the file, 0 past it.
  ///
  /// - Throws: the `Errno` of `pread(2)`.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
    while true {
      let n = pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset))
      if n >= 0 { return n }
      if errno != EINTR { throw .current }
    }
  }

  /// Everything left to read from the file offset to the end (a pipe: until the writer closes
  /// it), e.g. standard input.
  ///
  /// - Throws: the `Errno` of `read(2)`.
  public func readToEnd() throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw .current }
      if n == 0 { return bytes }
      bytes += chunk[..<n]
    }
  }

  /// Writes all of `bytes` at the file offset, resuming after short writes.
  ///
  /// - Throws: the `Errno` of `write(2)`.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var written = 0
    while written < bytes.count {
      let w = write(rawValue, bytes.baseAddress! + written, bytes.count - written)
      if w < 0, errno == EINTR { continue }
      guard w > 0 else { throw .current }
      written += w
    }
  }

  /// Hard-links the open file at `path` through `/proc/self/fd` (no second lookup of the name it
  /// was opened by, so nothing can be swapped in between).
  ///
  /// - Throws: the `Errno` of `linkat(2)`: EXDEV on another file system, EPERM under protected
  ///   hard links, ENOENT without /proc.
  public func link(to path: String) throws(Errno) {
    guard linkat(AT_FDCWD, "/proc/self/fd/\(rawValue)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 else { throw .current }
  }

  /// The canonical path of the open file, as the kernel names it (`/proc/self/fd`, read with
  /// readlink: no second path lookup).
  ///
  /// - Throws: ENAMETOOLONG for a path longer than PATH_MAX; ENOENT when the name it was opened
  ///   by was unlinked since; the `Errno` of readlink when there is no /proc.
  public func openedPath() throws(Errno) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/fd/\(rawValue)", &buffer, buffer.count)
    guard n > 0, n < buffer.count else {
      throw n >= buffer.count ? Errno(ENAMETOOLONG) : .current
    }
    let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var opened = stat()
    guard path.hasPrefix("/"), fstat(rawValue, &opened) == 0, opened.st_nlink > 0 else {
      throw .noSuchFile
    }
    // The kernel marks an unlinked name with " (deleted)"; a file may also just be named so.
    // It is that file only if the path still leads to the very inode that is open.
    if path.hasSuffix(" (deleted)") {
      var named = stat()
      guard lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else {
        throw .noSuchFile
      }
    }
    return path
  }
}
