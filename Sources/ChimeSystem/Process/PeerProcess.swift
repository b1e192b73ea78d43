import CLinux
import Glibc

/// What chimed reads about a connecting process to tell which app it is: its sandbox's
/// `.flatpak-info` and its cgroup, under a `/proc` root tests can replace with a fake tree.
public struct PeerProcess: Sendable {
  /// What was read; nil where the file does not exist or could not be read.
  public struct Facts: Sendable, Equatable {
    public var flatpakInfo: String?
    public var cgroup: String?
  }

  /// `/proc` in production.
  public let procRoot: String

  public init(procRoot: String = "/proc") { self.procRoot = procRoot }

  /// Reads `ROOT/PID/root/.flatpak-info` (through the process's own root, so it is the file
  /// Flatpak bound into the sandbox, which the app cannot write) and `ROOT/PID/cgroup`, each
  /// capped at 64 KiB.
  public func facts(pid: Int32) -> Facts {
    Facts(flatpakInfo: Self.read("\(procRoot)/\(pid)/root/.flatpak-info"), cgroup: Self.read("\(procRoot)/\(pid)/cgroup"))
  }

  /// True while the process a pidfd refers to is running: facts read before this returns true
  /// belonged to that process, not to one that got its pid after it exited.
  public static func isRunning(pidfd: Int32) -> Bool {
    // Only ESRCH says it is gone; EPERM means it lives (and is not ours to signal), and a
    // kernel or tool without the call (ENOSYS) cannot tell us otherwise.
    pidfd_send_signal(pidfd, 0, nil, 0) == 0 || errno != ESRCH
  }

  /// True when this kernel has no pidfd_open (Linux before 5.3): a peer is then identified by
  /// its pid alone, without the check that the pid was not recycled meanwhile.
  public static let pidfdUnsupported: Bool = {
    let fd = pidfd_open(getpid(), 0)
    if fd >= 0 { Glibc.close(fd); return false }
    return errno == ENOSYS
  }()

  private static func read(_ path: String) -> String? {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 64 * 1024 {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { return nil }
      if n == 0 { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A pidfd for `pid` (`pidfd_open`), for kernels without SO_PEERPIDFD; -1 on failure.
  public static func pidFD(of pid: Int32) -> Int32 {
    pidfd_open(pid, 0)
  }
}
