import ChimeCore
import Glibc

/// The few file-system calls the attachment store, the sound lookup and app registration
/// need, with errno turned into words. Blocking: call from the work pool, never the loop.
enum FileSystem {
  /// Why `path` is not an absolute, normalized path (no `.`, `..` or empty components, no NUL),
  /// or nil when it is.
  static func problem(withAbsolutePath path: String) -> String? {
    guard path.hasPrefix("/") else { return "must be an absolute path" }
    guard !path.utf8.contains(0) else { return "contains a NUL byte" }
    guard path.utf8.count <= Limits.pathMaxBytes else { return "is longer than \(Limits.pathMaxBytes) bytes" }
    let components = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if path != "/", components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
      return "must be normalized (no '.', '..' or empty components)"
    }
    return nil
  }

  /// The canonical path (symlinks resolved), or nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The canonical path of what `fd` has open, as the kernel names it (`/proc/self/fd`, read
  /// with readlink: no second path lookup), or nil when it cannot be told (no /proc, a path
  /// longer than PATH_MAX, or the name was unlinked since it was opened).
  static func openedPath(_ fd: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count)
    guard n > 0, n < buffer.count else {
      if n >= buffer.count { errno = ENAMETOOLONG }
      return nil
    }
    let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var opened = stat()
    guard path.hasPrefix("/"), fstat(fd, &opened) == 0, opened.st_nlink > 0 else {
      errno = ENOENT
      return nil
    }
    // The kernel marks an unlinked name with " (deleted)"; a file may also just be named so.
    // It is that file only if the path still leads to the very inode that is open.
    if path.hasSuffix(" (deleted)") {
      var named = stat()
      guard lstat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else {
        errno = ENOENT
        return nil
      }
    }
    return path
  }

  /// Why the file at canonical `path` could not be unlinked by this process, or nil when it
  /// can: its directory must be writable and searchable, and a sticky directory (like /tmp)
  /// only lets the owner of the file or of the directory remove it.
  static func whyNotRemovable(_ path: String) -> String? {
    let slash = path.lastIndex(of: "/") ?? path.startIndex
    let directory = slash == path.startIndex ? "/" : String(path[..<slash])
    guard access(directory, W_OK | X_OK) == 0 else {
      return "its directory \(directory) is not writable (\(describe(errno))); give a file in a writable directory, or put it in the app's bundle to have it copied"
    }
    guard let dir = lstatus(directory), let file = lstatus(path) else { return "it vanished (\(describe(errno)))" }
    let me = geteuid()
    if dir.st_mode & S_ISVTX != 0, me != 0, file.st_uid != me, dir.st_uid != me {
      return "its directory \(directory) is sticky and the file belongs to another user"
    }
    return nil
  }

  /// True when `path` is `root` or lies below it (both canonical).
  static func isWithin(_ path: String, root: String) -> Bool {
    path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// `stat` of a path without following a final symlink.
  static func lstatus(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
  }

  static func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
  static func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }
  static func isSymlink(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFLNK }

  /// Creates `path` and missing parents with mode 0700.
  static func makeDirectories(_ path: String) -> Bool {
    var partial = ""
    for component in path.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o700) != 0 && errno != EEXIST { return false }
    }
    return true
  }

  /// fsyncs a directory so entries created or renamed in it are durable.
  static func syncDirectory(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return fsync(fd) == 0
  }
}
