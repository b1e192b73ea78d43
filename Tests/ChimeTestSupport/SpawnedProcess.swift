public import Foundation
import Glibc

/// A child started with `posix_spawn` and reaped with `waitpid`. Every process the tests start
/// goes through here, not through Foundation's `Process`: on Linux its `run()` crashed reading
/// `/proc/self/fd` in a test process holding over a thousand descriptors (in-process daemons),
/// and its monitor thread blocks in `wait4` when a child execs again (systemd-socket-activate
/// execs chimed), stalling every other `Process` in the run.
public final class SpawnedProcess: @unchecked Sendable {
  public let pid: pid_t
  private let lock = NSLock()
  private var status: Int32?

  /// Starts `executable` with `arguments` and exactly `environment`; stdout and stderr are
  /// appended to the files named (the same file for both is fine).
  public init(_ executable: String, _ arguments: [String], environment: [String: String], stdout: String, stderr: String) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    if stderr == stdout {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    // A child starts as from a shell: no signal blocked (the spawning thread, a dispatch worker,
    // blocks many), and the signals the test process ignores (SIGPIPE) back to their default.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var child: pid_t = 0
    let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard rc == 0 else { throw NSError(domain: "posix_spawn \(executable)", code: Int(rc)) }
    pid = child
  }

  /// The test's own environment with `changes` applied (nil removes a variable).
  public static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    // scripts/swift-test.sh's setting for the test process's own executor: the programs under
    // test run on the runtime's default, as they do when installed.
    environment["SWIFT_DEBUG_CONCURRENCY_ENABLE_COOPERATIVE_QUEUES"] = nil
    for (key, value) in changes { environment[key] = value }
    return environment
  }

  /// True until the child has exited (it is reaped then).
  public var isRunning: Bool {
    reap(options: WNOHANG)
    return lock.withLock { status == nil }
  }

  /// Sends `signal` if the child has not been reaped yet.
  public func signal(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  /// Waits (bounded) for the child to exit; its exit status (128 + n for signal n), or nil when
  /// it still runs after `seconds` (it is then killed and reaped, so a hung child fails the
  /// test, never hangs it).
  public func waitForExit(seconds: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while isRunning && Date() < deadline { usleep(10_000) }
    if isRunning {
      kill(pid, SIGKILL)
      reap(options: 0)
      return nil
    }
    return lock.withLock { status }
  }

  private func reap(options: Int32) {
    lock.withLock {
      var raw: Int32 = 0
      guard status == nil, waitpid(pid, &raw, options) == pid else { return }
      // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
      status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      reap(options: 0)
    }
  }
}
