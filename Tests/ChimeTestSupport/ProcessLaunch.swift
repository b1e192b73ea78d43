public import Foundation

/// Starts children one at a time. Foundation's `Process.run()` on Linux is not safe to call
/// from several threads at once (a parallel run crashed in its argument copying while another
/// test started a process), so every launch in the tests goes through here.
public enum ProcessLaunch {
  private static let lock = NSLock()

  public static func run(_ process: Process) throws {
    lock.lock()
    defer { lock.unlock() }
    try process.run()
  }

  /// Runs `body` (a `posix_spawn`) under the same lock.
  public static func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
