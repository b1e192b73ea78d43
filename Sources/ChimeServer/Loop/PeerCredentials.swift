import Glibc

/// The credentials of a Unix-socket peer (SO_PEERCRED).
struct PeerCredentials: Equatable {
  var pid: Int32
  var uid: UInt32
  var gid: UInt32

  /// Glibc's Swift overlay does not export `struct ucred`; this is layout-compatible.
  private struct RawCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  static func of(fd: Int32) -> PeerCredentials? {
    var raw = RawCredentials()
    var length = socklen_t(MemoryLayout<RawCredentials>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0 else { return nil }
    return PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid)
  }
}
