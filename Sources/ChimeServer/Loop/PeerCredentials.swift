import ChimeSystem
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

  /// SO_PEERPIDFD (Linux 6.5): a pidfd for the very process that connected, so a pid recycled
  /// since cannot be mistaken for it. Older kernels: pidfd_open(pid), which is as good as long
  /// as the peer is still running when it is checked after reading its facts.
  static func pidFD(fd: Int32, pid: Int32) -> Int32 {
    let soPeerPidFD: Int32 = 77
    var pidfd: Int32 = -1
    var length = socklen_t(MemoryLayout<Int32>.size)
    if getsockopt(fd, SOL_SOCKET, soPeerPidFD, &pidfd, &length) == 0, pidfd >= 0 { return pidfd }
    return PeerProcess.pidFD(of: pid)
  }
}
