import ChimeCore
import Glibc

/// The few file-system calls the attachment store, the sound lookup and app registration
/// need, with errno turned into words. Blocking: call from the work pool, never the loop.
public enum FileSystem {
  /// Why `path` is not an absolute, normalized path (no `.`, `..` or empty components, no NUL),
  /// or nil when it is.
  public static func problem(withAbsolutePath path: String) -> String? {
    guard path.hasPrefix("/") else { return "must be an absolute path" }
    guard !path.containsNUL else { return "contains a NUL byte" }
    guard path.utf8.count <= Limits.pathMaxBytes else { return "is longer than \(Limits.pathMaxBytes) bytes" }
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if path != "/", components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
      return "must be normalized (no '.', '..' or empty components)"
    }
    return nil
  }

  /// The canonical path (symlinks resolved), or nil when it does not exist.
  public static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Why the file at canonical `path` could not be unlinked by this process, or nil when it
  /// can: its directory must be writable and searchable, and a sticky directory (like /tmp)
  /// only lets the owner of the file or of the directory remove it.
  public static func whyNotRemovable(_ path: String) -> String? {
    let slash = path.lastIndex(of: "/") ?? path.startIndex
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    guard access(directory, W_OK | X_OK) == 0 else {
      return "its directory \(directory) is not writable (\(Errno.current)); give a file in a writable directory, or put it in the app's bundle to have it copied"
    }
    guard let dir = lstatus(directory), let file = lstatus(path) else { return "it vanished (\(Errno.current))" }
    let me = geteuid()
    if dir.isSticky, me != 0, file.ownerID != me, dir.ownerID != me {
      return "its directory \(directory) is sticky and the file belongs to another user"
    }
    return nil
  }

  /// True when `path` is `root` or lies below it (both canonical).
  public static func isWithin(_ path: String, root: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  /// The status of a path without following a final symlink (`lstat(2)`), or nil when there is
  /// nothing there.
  public static func lstatus(_ path: String) -> FileStatus? {
    var st = stat()
    return lstat(path, &st) == 0 ? FileStatus(st) : nil
  }

  /// The status of what `path` leads to, symlinks followed (`stat(2)`), or nil when nothing.
  public static func status(_ path: String) -> FileStatus? {
    var st = stat()
    return stat(path, &st) == 0 ? FileStatus(st) : nil
  }

  /// Creates `path` and missing parents with mode 0700.
  ///
  /// - Throws: the `Errno` of the first `mkdir(2)` that failed for another reason than EEXIST.
  public static func makeDirectories(_ path: String) throws(Errno) {
    var partial = ""
    for component in path.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o700) != 0 && errno != EEXIST { throw .current }
    }
  }

  /// fsyncs a directory so entries created or renamed in it are durable.
  ///
  /// - Throws: the `Errno` of `open(2)` or `fsync(2)`.
  public static func syncDirectory(_ path: String) throws(Errno) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .current }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw .current }
  }

  /// Removes the name `path` (`unlink(2)`; a final symlink itself, not what it points to).
  ///
  /// - Throws: the `Errno` of `unlink(2)` (`.noSuchFile` when there is no such name).
  public static func unlink(_ path: String) throws(Errno) {
    guard Glibc.unlink(path) == 0 else { throw .current }
  }

  /// Removes the file `path` like `unlink`, but a large one is first cut down `step` bytes at a
  /// time, each cut made durable (`ftruncate(2)` then `fdatasync(2)`), so the blocks it frees
  /// go out over many journal commits. On ext4 mounted with `discard` one 50 MB unlink
  /// frees (and discards) everything in one commit, and every other file's fsync on the disk
  /// waited 20–150 ms behind it (an fdatasync loop beside two copiers: p99 27–45 ms, worst
  /// 150 ms); in 2 MB steps p99 was 3.4–3.6 ms and the worst 4.4 ms. A file with other names
  /// (hard links), or that cannot be opened for writing, is only unlinked: its data is not
  /// ours to cut.
  ///
  /// - Throws: the `Errno` of `unlink(2)` (`.noSuchFile` when there is no such name). A cut
  ///   that fails only ends the cutting early.
  public static func unlinkInSteps(_ path: String, step: Int) throws(Errno) {
    precondition(step > 0)
    let fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    if fd >= 0 {
      defer { close(fd) }
      var st = stat()
      if fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_nlink == 1 {
        var size = Int(st.st_size)
        while size > step {
          size -= step
          guard ftruncate(fd, off_t(size)) == 0, fdatasync(fd) == 0 else { break }
        }
      }
    }
    try unlink(path)
  }

  /// Renames `path` to `newPath` (`rename(2)`: atomic, replaces `newPath`).
  ///
  /// - Throws: the `Errno` of `rename(2)`.
  public static func rename(_ path: String, to newPath: String) throws(Errno) {
    guard Glibc.rename(path, newPath) == 0 else { throw .current }
  }
}
