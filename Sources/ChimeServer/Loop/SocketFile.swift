import Glibc
import ChimeCore

/// Prepares the path the daemon listens on: parent directory 0700 owned by us, no live
/// daemon already there, no stale socket file left in the way.
enum SocketFile {
  static func prepare(_ path: String) throws(ChimeLoopError) {
    guard path.utf8.count <= SocketPath.maxBytes else {
      throw ChimeLoopError("socket path is \(path.utf8.count) bytes; Unix sockets allow at most \(SocketPath.maxBytes): \(path)")
    }
    guard path.hasPrefix("/") else {
      throw ChimeLoopError("socket path must be absolute: \(path)")
    }
    let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if !dir.isEmpty {
      try makeDirectory(dir)
    }
    var st = stat()
    if lstat(path, &st) == 0 {
      guard (st.st_mode & S_IFMT) == S_IFSOCK else {
        throw ChimeLoopError("\(path) exists and is not a socket; refusing to replace it")
      }
      if isLive(path) {
        throw ChimeLoopError("another chimed is already listening on \(path)")
      }
      unlink(path)
    }
  }

  /// After bind: only the owner may connect.
  static func restrict(_ path: String) {
    chmod(path, 0o600)
  }

  private static func makeDirectory(_ dir: String) throws(ChimeLoopError) {
    var st = stat()
    if stat(dir, &st) != 0 {
      // Create parents as needed, then the socket directory itself 0700.
      var partial = ""
      for component in dir.split(separator: "/") {
        partial += "/" + component
        if mkdir(partial, 0o700) != 0 && errno != EEXIST {
          throw ChimeLoopError("cannot create \(partial): \(String(cString: strerror(errno)))")
        }
      }
      guard stat(dir, &st) == 0 else { throw ChimeLoopError("cannot create \(dir)") }
      chmod(dir, 0o700)
    }
    guard (st.st_mode & S_IFMT) == S_IFDIR else {
      throw ChimeLoopError("\(dir) is not a directory")
    }
    guard st.st_uid == getuid() else {
      throw ChimeLoopError("\(dir) belongs to uid \(st.st_uid), not to us (uid \(getuid())); refusing to listen there")
    }
    if st.st_mode & 0o077 != 0 && dir.hasSuffix("/chime") {
      chmod(dir, 0o700)
    }
  }

  private static func isLive(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    return rc == 0
  }
}
