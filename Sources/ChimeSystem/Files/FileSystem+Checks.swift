import Glibc

/// What `chime doctor` and the CLI ask of paths before a daemon does: why one cannot be
/// read or written, and the file system it is on.
extension FileSystem {
  /// The status of what `path` leads to, symlinks followed (`stat(2)`).
  ///
  /// - Throws: the `Errno` (ENOENT when nothing is there, ENOTDIR when a component is a file).
  public static func statusOrError(_ path: String) throws(Errno) -> FileStatus {
    var st = stat()
    guard stat(path, &st) == 0 else { throw Errno.current }
    return FileStatus(st)
  }

  /// The status of `path` itself, a final symlink not followed (`lstat(2)`).
  ///
  /// - Throws: the `Errno`, as `statusOrError`.
  public static func linkStatusOrError(_ path: String) throws(Errno) -> FileStatus {
    var st = stat()
    guard lstat(path, &st) == 0 else { throw Errno.current }
    return FileStatus(st)
  }

  /// Nil when this process may create files in (or write) `path`, else why not (`access(2)`
  /// with W_OK: permissions and a read-only mount both answer here).
  public static func whyNotWritable(_ path: String) -> Errno? {
    access(path, W_OK) == 0 ? nil : Errno.current
  }

  /// The file system `path` is on, or nil when `statvfs(2)` fails.
  public static func volume(of path: String) -> Volume? {
    var fs = statvfs()
    guard statvfs(path, &fs) == 0 else { return nil }
    return Volume(availableBytes: UInt64(fs.f_bavail) * UInt64(fs.f_frsize), isReadOnly: fs.f_flag & UInt(ST_RDONLY) != 0)
  }

  /// A mounted file system, as `statvfs(2)` describes it.
  public struct Volume: Hashable, Sendable {
    /// Bytes an unprivileged user may still write.
    public var availableBytes: UInt64
    /// Mounted read-only.
    public var isReadOnly: Bool
  }
}
