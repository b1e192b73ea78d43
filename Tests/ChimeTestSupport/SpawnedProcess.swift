public import Foundation
public import Glibc

/// A child started with `posix_spawn` and reaped with `waitpid`, for programs that exec again
/// (`systemd-socket-activate` execs chimed): Foundation's `Process` takes that exec for the
/// child's end and blocks its monitor thread in `wait4` until the grandchild exits, which
/// stalls every other `Process` in the test run.
public final class SpawnedProcess: @unchecked Sendable {
  public let pid: pid_t
  private var status: Int32?

  /// Starts `executable` with `arguments`, the test's environment plus `environment`, and
  /// stdout and stderr appended to `logFile`.
  public init(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:], logFile: String) throws {
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, logFile, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var child: pid_t = 0
    let rc = ProcessLaunch.locked { posix_spawn(&child, executable, &actions, nil, argv, envp) }
    guard rc == 0 else { throw NSError(domain: "posix_spawn", code: Int(rc)) }
    pid = child
  }

  /// Sends `signal` if the child has not been reaped yet.
  public func signal(_ signal: Int32) {
    if status == nil { kill(pid, signal) }
  }

  /// Waits (bounded) for the child to exit; its exit status, or nil when it still runs after
  /// `seconds` (it is then killed and reaped, so a hung child fails the test, never hangs it).
  public func waitForExit(seconds: Double = 20) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    while status == nil && Date() < deadline {
      reap(options: WNOHANG)
      if status == nil { usleep(10_000) }
    }
    if status == nil {
      kill(pid, SIGKILL)
      reap(options: 0)
      return nil
    }
    return status
  }

  private func reap(options: Int32) {
    var raw: Int32 = 0
    guard status == nil, waitpid(pid, &raw, options) == pid else { return }
    // WIFEXITED / WEXITSTATUS, spelled out: the macros are not imported.
    status = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  deinit {
    if status == nil {
      kill(pid, SIGKILL)
      reap(options: 0)
    }
  }
}
