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
