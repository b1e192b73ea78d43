public import Glibc

/// Runs a program to its end with bytes on its stdin and a time limit: for presenter commands
/// and sound players. Blocks the calling thread (call it on a work pool, never on the loop).
/// The child gets its own process group, so a timeout kills everything it started; its stdout
/// and stderr go to this process's stderr (the daemon's log).
public enum Subprocess {
  public enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    /// Still running at the limit: its process group was killed.
    case timedOut(millis: Int)
    case failedToStart(Errno)

    public var description: String {
      switch self {
      case .exited(let code): "exited with status \(code)"
      case .signaled(let signal): "killed by signal \(signal)"
      case .timedOut(let millis): "still running after \(millis) ms; killed"
      case .failedToStart(let error): "could not start: \(error)"
      }
    }

    public var succeeded: Bool { self == .exited(0) }
  }

  /// Runs `argv[0]` (a path, or a name looked up on PATH) with `argv`, `environment` added to
  /// this process's, `input` on stdin; waits at most `timeoutMillis`.
  /// Starts `argv` (looked up on PATH when the program has no slash) with `actions`, in a
  /// process group of its own (so a timeout can kill all it started), with an empty signal mask
  /// and default dispositions for the signals chimed handles or ignores. Returns the pid and
  /// posix_spawn's result (0 when started).
  public static func spawn(_ argv: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String]) -> (pid_t, Int32) {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in cArgv { free(p) }
      for p in cEnv { free(p) }
    }
    var pid: pid_t = 0
    let program = argv.first ?? ""
    let rc = program.contains("/")
      ? posix_spawn(&pid, program, &actions, &attributes, cArgv, cEnv)
      : posix_spawnp(&pid, program, &actions, &attributes, cArgv, cEnv)
    return (pid, rc)
  }

  public static func run(_ argv: [String], environment extra: [String: String] = [:], input: [UInt8] = [],
                         timeoutMillis: Int) -> Outcome {
    guard !argv.isEmpty else { return .failedToStart(Errno(ENOENT)) }
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return .failedToStart(.current) }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    // Close-on-exec, as every other descriptor of chimed's is (libuv, SQLite): only 0-2 pass.
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
    posix_spawn_file_actions_adddup2(&actions, 2, 1)
    var environment = ProcessEnvironment.variables
    for (key, value) in extra { environment[key] = value }
    let (pid, rc) = spawn(argv, actions: &actions, environment: environment)
    close(readEnd)
    guard rc == 0 else {
      close(writeEnd)
      return .failedToStart(Errno(rc))
    }
    // Written without blocking, between looks at the child: one that never reads cannot hold us.
    _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
    var written = 0
    var writeOpen = true
    if input.isEmpty { close(writeEnd); writeOpen = false }
    let deadline = monotonicMillis() + Int64(timeoutMillis)
    while true {
      if writeOpen {
        let n = input.withUnsafeBytes { write(writeEnd, $0.baseAddress! + written, $0.count - written) }
        if n > 0 { written += n }
        if written == input.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
          close(writeEnd)
          writeOpen = false
        }
      }
      var status: Int32 = 0
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        if writeOpen { close(writeEnd) }
        // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
        return (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
      }
      if monotonicMillis() >= deadline {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        if writeOpen { close(writeEnd) }
        return .timedOut(millis: timeoutMillis)
      }
      usleep(5_000)
    }
  }

  /// The full path of `name` on `$PATH`, nil when none is executable.
  public static func which(_ name: String) -> String? {
    let path = ProcessEnvironment.variable("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") where !dir.isEmpty {
      let candidate = dir + "/" + name
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  static func monotonicMillis() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
