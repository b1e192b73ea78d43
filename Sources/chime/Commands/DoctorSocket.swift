import ChimeBuildInfo
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

extension DoctorChecks {
  /// The socket file: there, a socket, the user's own, and listened on. A socket file nothing
  /// listens on (left by a chimed or a chimed.socket that stopped) is told from a live one.
  func socketCheck(_ path: String, systemd: DoctorSystemd) -> DoctorCheck {
    let info: FileStatus
    do throws(Errno) {
      info = try FileSystem.linkStatusOrError(path)
    } catch {
      return DoctorCheck(name: "socket", status: .fail, detail: "\(path): \(error)", hint: systemd.startHint(socket: path))
    }
    let detail = "\(path) (owner uid \(info.ownerID), mode \(String(info.permissions, radix: 8)))"
    guard info.kind == .socket else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + " is not a socket", hint: "remove it and restart chimed")
    }
    guard info.ownerID == ProcessEnvironment.userID else {
      return DoctorCheck(name: "socket", status: .fail, detail: detail + ": another user's",
                         hint: "each user runs their own chimed; check $CHIME_SOCKET and --socket")
    }
    switch UnixSocket.probe(path: path) {
    case nil:
      return DoctorCheck(name: "socket", status: .ok, detail: detail + ", listening")
    case Errno.connectionRefused?:
      let hint = systemd.reachable
        ? "`systemctl --user restart chimed.socket` makes a live one (or remove the file and run `chimed`)"
        : "remove it and start `chimed`"
      return DoctorCheck(name: "socket", status: .fail,
                         detail: detail + ": stale, nothing listens on it (left by a chimed or chimed.socket that stopped)", hint: hint)
    case let failure?:
      return DoctorCheck(name: "socket", status: .fail, detail: detail + ": cannot connect: \(failure)",
                         hint: systemd.startHint(socket: path))
    }
  }

  /// Reachable and answering; the same version as this CLI; serving the data directory this
  /// configuration names. Each state has one hint, said once: with the socket check failed
  /// (no file, stale, not a socket) its hint is the one; a chimed answering CONFIG_INVALID is up
  /// (socket activation keeps it so) with an invalid configuration, whose fix the config check
  /// names when it failed too.
  func daemonChecks(_ path: String, dataDirectory: String, systemd: DoctorSystemd,
                    socketFailed: Bool, configFailed: Bool) async -> [DoctorCheck] {
    guard !socketFailed else {
      return [DoctorCheck(name: "daemon", status: .fail, detail: "not reached: no live socket at \(path) (see the socket check)")]
    }
    let started = Date()
    let info: ServerInfo
    let client: ChimeClient
    do throws(ChimeError) {
      client = try ChimeClient.connect(socketPath: path, app: "chime.doctor", timeout: 5)
      do {
        info = try await client.serverInfo()
      } catch where error.code == .unimplemented {
        _ = try await client.settings()
        return [DoctorCheck(name: "daemon", status: .ok, detail: "answered in \(Self.millis(since: started)) ms"),
                DoctorCheck(name: "version", status: .warn, detail: "chimed is older than this chime \(BuildInfo.version) (no GetServerInfo)",
                            hint: systemd.restartHint)]
      }
    } catch where error.has(.configInvalid) {
      return [DoctorCheck(name: "daemon", status: .fail,
                          detail: "chimed is up but its configuration is invalid, so it answers every call with CONFIG_INVALID: \(error.message)",
                          hint: configFailed ? "" : systemd.configFixHint)]
    } catch {
      // The client's own advice ("is the daemon running? Start it with `chimed`") gives way to
      // the hint, which agrees with what systemd says.
      let message = error.message.components(separatedBy: "; is the daemon running?").first ?? error.message
      let start = systemd.startHint(socket: path)
      return [DoctorCheck(name: "daemon", status: .fail, detail: "\(error.code) \(error.reason): \(message)",
                          hint: start.contains("journalctl") ? start : start + "; " + systemd.logHint)]
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
    return checks + (await Self.calendarChecks(client))
  }

  static func millis(since start: Date) -> Int { Int(Date().timeIntervalSince(start) * 1000) }
}
