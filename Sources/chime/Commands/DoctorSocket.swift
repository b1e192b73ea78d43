import ChimeBuildInfo
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials
import Glibc

extension DoctorChecks {
  /// The socket file: there, a socket, the user's own, and listened on. A socket file nothing
  /// listens on (left by a chimed or a chimed.socket that stopped) is told from a live one.
  func socketCheck(_ path: String, systemd: DoctorSystemd) -> DoctorCheck {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      return DoctorCheck(name: "socket", status: .fail, detail: "\(path): \(String(cString: strerror(errno)))",
                         hint: systemd.startHint(socket: path))
    }
    let mode = info.st_mode & 0o7777
    let detail = "\(path) (owner uid \(info.st_uid), mode \(String(mode, radix: 8)))"
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + " is not a socket", hint: "remove it and restart chimed")
    }
    guard info.st_uid == getuid() else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + ": another user's",
                         hint: "each user runs their own chimed; check $CHIME_SOCKET and --socket")
    }
    switch Self.probe(path) {
    case 0:
      return DoctorCheck(name: "socket", status: .ok, detail: detail + ", listening")
    case ECONNREFUSED:
      let hint = systemd.reachable
        ? "`systemctl --user restart chimed.socket` makes a live one (or remove the file and run `chimed`)"
        : "remove it and start `chimed`"
      return DoctorCheck(name: "socket", status: .fail,
                         detail: detail + ": stale, nothing listens on it (left by a chimed or chimed.socket that stopped)", hint: hint)
    case let code:
      return DoctorCheck(name: "socket", status: .fail, detail: detail + ": cannot connect: \(String(cString: strerror(code)))",
                         hint: systemd.startHint(socket: path))
    }
  }

  /// Connects to the socket and hangs up: 0 when something accepts, else the errno
  /// (ECONNREFUSED: a socket file with no listener).
  static func probe(_ path: String) -> Int32 {
    guard let address = try? UnixSocketAddress(path) else { return ENAMETOOLONG }
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(address.path.utf8)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    return rc == 0 ? 0 : errno
  }

  /// Reachable and answering; the same version as this CLI; serving the data directory this
  /// configuration names.
  func daemonChecks(_ path: String, dataDirectory: String, systemd: DoctorSystemd) async -> [DoctorCheck] {
    let started = Date()
    let info: ServerInfo
    do throws(ChimeError) {
      let client = try ChimeClient.connect(socketPath: path, app: "chime.doctor", timeout: 5)
      do {
        info = try await client.serverInfo()
      } catch where error.code == .unimplemented {
        _ = try await client.settings()
        return [DoctorCheck(name: "daemon", status: .ok, detail: "answered in \(Self.millis(since: started)) ms"),
                DoctorCheck(name: "version", status: .warn, detail: "chimed is older than this chime \(BuildInfo.version) (no GetServerInfo)",
                            hint: systemd.restartHint)]
      }
    } catch {
      // The client's own advice ("is the daemon running? Start it with `chimed`") gives way to
      // the hint, which agrees with what systemd says.
      let message = error.message.components(separatedBy: "; is the daemon running?").first ?? error.message
      return [DoctorCheck(name: "daemon", status: .fail, detail: "\(error.code) \(error.reason): \(message)",
                          hint: systemd.startHint(socket: path) + "; " + systemd.logHint)]
    }
    let up = DurationText.format(max(0, Date().timeIntervalSince(info.startedAt.date)))
    var checks = [DoctorCheck(name: "daemon", status: .ok,
                              detail: "pid \(info.processID), up \(up), answered in \(Self.millis(since: started)) ms")]
    checks.append(info.version == BuildInfo.version
      ? DoctorCheck(name: "version", status: .ok, detail: "chime and chimed \(info.version)")
      : DoctorCheck(name: "version", status: .warn, detail: "chime \(BuildInfo.version), chimed \(info.version)", hint: systemd.restartHint))
    let configured = FileSystem.realPath(dataDirectory) ?? dataDirectory
    if configured != info.dataDirectory {
      checks.append(DoctorCheck(name: "daemon-data-dir", status: .warn,
                                detail: "chimed serves \(info.dataDirectory); this configuration names \(configured)",
                                hint: "the checks below look at \(configured): pass --data-dir, or start chimed with the same configuration"))
    }
    return checks
  }

  static func millis(since start: Date) -> Int { Int(Date().timeIntervalSince(start) * 1000) }
}
