import ChimeCore
import ChimeSystem
import Glibc

/// Prepares the path the daemon listens on: parent directory 0700 owned by us, the lock beside
/// the socket taken (so only one daemon ever owns the path), no stale socket file left in the
/// way.
enum SocketFile {
  /// Claims `path` for this daemon and returns the lock that says so (`PATH.lock`), to hold
  /// until the socket file is removed at shutdown. A daemon that cannot take the lock touches
  /// nothing: the socket file belongs to the one that holds it.
  static func claim(_ path: String) throws(ChimeLoopError) -> FileLock {
    try UnixListener.checkAddress(path)
    guard path.hasPrefix("/") else {
      throw ChimeLoopError("socket path must be absolute: \(path)")
    }
    let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if !dir.isEmpty {
      try makeDirectory(dir)
    }
    let lock: FileLock
    do {
      lock = try FileLock.acquire(path + ".lock")
    } catch {
      switch error {
      case .held(let pid):
        throw ChimeLoopError("another chimed\(pid.map { " (pid \($0))" } ?? "") is already serving \(path)")
      case .failed(let errno):
        throw ChimeLoopError("cannot lock \(path).lock: \(errno)")
      }
    }
    var st = stat()
    if lstat(path, &st) == 0 {
      guard (st.st_mode & S_IFMT) == S_IFSOCK else {
        throw ChimeLoopError("\(path) exists and is not a socket; refusing to replace it")
      }
      // The lock is ours, so no chimed serves here; something else accepting (another program,
      // a chimed from before the lock existed) keeps its socket.
      if UnixSocket.isAccepting(path: path) {
        throw ChimeLoopError("another program is already listening on \(path)")
      }
      unlink(path)
    }
    return lock
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
}
