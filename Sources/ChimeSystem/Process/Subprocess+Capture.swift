import Glibc

extension Subprocess {
  /// What a captured run left: how it ended, its pid (a temporary it named after itself can be
  /// removed), and the last bytes of its stdout and stderr.
  public struct Captured: Sendable {
    public var outcome: Outcome
    /// 0 when it did not start.
    public var pid: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    /// True when the program wrote more than was kept.
    public var truncated: Bool

    /// The last non-empty line of stderr, decoded leniently.
    public var lastErrorLine: String {
      String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    }
  }

  /// Runs `argv[0]` (a path) with `argv`, `environment` added to this process's, stdin from
  /// /dev/null (or `input`, written as the child reads it while its output is read, so neither
  /// side can block the other; SIGPIPE is ignored from then on, so a child that exits without
  /// reading it all is an EPIPE, not this process's death), stdout and stderr captured
  /// (the last `maxOutputBytes` of each kept; the rest is read and dropped, so the child never
  /// blocks on a full pipe); waits at most `timeoutMillis`, then kills its process group and
  /// reaps it. Blocks the calling thread: call it on a work pool, never on the loop. `slot`, when
  /// given, lets another thread stop the child (`ProcessSlot.stop`).
  public static func capture(_ argv: [String], environment extra: [String: String] = [:], timeoutMillis: Int,
                             maxOutputBytes: Int = 4096, slot: ProcessSlot? = nil, input: [UInt8] = []) -> Captured {
    var result = Captured(outcome: .failedToStart(Errno(ENOENT)), pid: 0, stdout: [], stderr: [], truncated: false)
    guard !argv.isEmpty else { return result }
    var stdin: [Int32] = [-1, -1]
    if !input.isEmpty {
      guard pipe(&stdin) == 0 else { result.outcome = .failedToStart(.current); return result }
      for fd in stdin { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      _ = fcntl(stdin[1], F_SETFL, fcntl(stdin[1], F_GETFL) | O_NONBLOCK)
      signal(SIGPIPE, SIG_IGN)
    }
    var written = 0
    defer {
      if stdin[1] >= 0 { close(stdin[1]) }
    }
    var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
    guard pipe(&out) == 0 else {
      result.outcome = .failedToStart(.current)
      if stdin[0] >= 0 { close(stdin[0]) }
      return result
    }
    guard pipe(&err) == 0 else {
      result.outcome = .failedToStart(.current)
      close(out[0]); close(out[1])
      return result
    }
    // Close-on-exec, as every other descriptor of chimed's (pipe2 is not in Swift's Glibc; the
    // exit is watched with waitpid, so a copy leaked meanwhile into another child only delays
    // nothing but that child's end of file).
    for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if stdin[0] >= 0 {
      posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, out[1], 1)
    posix_spawn_file_actions_adddup2(&actions, err[1], 2)
    var environment = ProcessEnvironment.variables
    for (key, value) in extra { environment[key] = value }
    let (pid, rc) = spawn(argv, actions: &actions, environment: environment)
    close(out[1])
    close(err[1])
    if stdin[0] >= 0 { close(stdin[0]) }
    defer {
      close(out[0])
      close(err[0])
    }
    guard rc == 0 else {
      result.outcome = .failedToStart(Errno(rc))
      return result
    }
    result.pid = pid
    slot?.started(pid)
    var open = [out[0], err[0]]
    let deadline = monotonicMillis() + Int64(timeoutMillis)
    var buffer = [UInt8](repeating: 0, count: 4096)
    var status: Int32 = 0
    while true {
      // Drain whatever is there, then look at the child; poll at most 5 ms so an exit that
      // leaves a grandchild holding the pipes is still seen.
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if stdin[1] >= 0 { fds.append(pollfd(fd: stdin[1], events: Int16(POLLOUT), revents: 0)) }
      if !fds.isEmpty { _ = poll(&fds, nfds_t(fds.count), 5) } else { usleep(5_000) }
      for entry in fds where entry.revents != 0 && entry.events == Int16(POLLOUT) {
        let n = input.withUnsafeBytes { write(stdin[1], $0.baseAddress! + written, $0.count - written) }
        if n > 0 { written += n }
        if written == input.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
          close(stdin[1])
          stdin[1] = -1
        }
      }
      for entry in fds where entry.revents != 0 && entry.events == Int16(POLLIN) {
        let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
        if n > 0 {
          let chunk = buffer[0..<n]
          if entry.fd == out[0] {
            keep(chunk, in: &result.stdout, limit: maxOutputBytes, truncated: &result.truncated)
          } else {
            keep(chunk, in: &result.stderr, limit: maxOutputBytes, truncated: &result.truncated)
          }
        } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
          open.removeAll { $0 == entry.fd }
        }
      }
      let reaped = slot.map { $0.reaping(pid) { waitpid(pid, &status, WNOHANG) } } ?? waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        // What it wrote just before exiting is still in the pipes.
        for fd in open {
          _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
          while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            if fd == out[0] {
              keep(buffer[0..<n], in: &result.stdout, limit: maxOutputBytes, truncated: &result.truncated)
            } else {
              keep(buffer[0..<n], in: &result.stderr, limit: maxOutputBytes, truncated: &result.truncated)
            }
          }
        }
        // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
        result.outcome = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
        return result
      }
      if monotonicMillis() >= deadline {
        if let slot {
          slot.killForTimeout(pid)
        } else {
          kill(-pid, SIGKILL)
          kill(pid, SIGKILL)
        }
        _ = waitpid(pid, &status, 0)
        result.outcome = .timedOut(millis: timeoutMillis)
        return result
      }
    }
  }

  /// Keeps the last `limit` bytes: a program's reason is its last line.
  private static func keep(_ chunk: ArraySlice<UInt8>, in bytes: inout [UInt8], limit: Int, truncated: inout Bool) {
    bytes += chunk
    if bytes.count > limit {
      truncated = true
      bytes.removeFirst(bytes.count - limit)
    }
  }
}
