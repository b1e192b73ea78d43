import ChimeSystem
import Foundation
import Glibc

/// A child started with `posix_spawn` and reaped with `wait4`, so its own resource usage
/// (CPU, peak RSS) comes back with its status, apart from the benchmark's.
struct Spawned {
  var status: Int32
  var wallSeconds: Double
  var cpuSeconds: Double
  /// `ru_maxrss` of the child: its peak resident set, in KiB.
  var peakRSSKiB: Int
  var output: String

  /// Runs `executable` (a path, or a name looked up in PATH) to completion, at most
  /// `timeoutSeconds` (then SIGKILL and an error). Stdout is captured through a file in
  /// `scratch`; stderr goes to /dev/null unless `keepStderr`.
  static func run(_ executable: String, _ arguments: [String], scratch: String, timeoutSeconds: Double = 30,
                  keepStderr: Bool = false) throws -> Spawned {
    guard let path = resolve(executable) else { throw BenchError("\(executable): not found") }
    let outPath = scratch + "/spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
    defer { unlink(outPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if keepStderr {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    let start = ContinuousClock.now
    let (child, rc) = Subprocess.spawn([path] + arguments, actions: &actions, environment: ProcessInfo.processInfo.environment)
    guard rc == 0 else { throw BenchError("posix_spawn \(path): \(String(cString: strerror(rc)))") }
    // A watchdog kills the child after the timeout. The child is waited for without being
    // reaped first (WNOWAIT), so its pid cannot be reused before the watchdog is disarmed.
    let watchdog = Watchdog(pid: child)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) { watchdog.fire() }
    var info = siginfo_t()
    while waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    let killed = watchdog.disarm()
    var status: Int32 = 0
    var usage = rusage()
    while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
    if killed {
      throw BenchError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeoutSeconds) s")
    }
    let wall = (ContinuousClock.now - start).seconds
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Spawned(status: exit, wallSeconds: wall, cpuSeconds: cpu, peakRSSKiB: Int(usage.ru_maxrss), output: output)
  }

  /// `name` itself when it contains a slash, else the first executable match in PATH.
  static func resolve(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}

/// Kills one child once, unless disarmed first.
private final class Watchdog: @unchecked Sendable {
  private let pid: pid_t
  private let lock = NSLock()
  private var armed = true
  private var killed = false
  init(pid: pid_t) { self.pid = pid }
  func fire() {
    lock.withLock {
      if armed { kill(pid, SIGKILL); killed = true }
    }
  }
  /// True when the watchdog had killed the child.
  func disarm() -> Bool { lock.withLock { armed = false; return killed } }
}
