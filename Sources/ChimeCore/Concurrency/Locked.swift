import Foundation

/// A value behind a lock, for state that threads other than the loop's share (a cache, a reply
/// slot, a clock a test moves).
///
/// Not `Synchronization.Mutex`: on Linux its lock is a futex inside the standard library, which
/// ThreadSanitizer does not instrument, so every access it guards is reported as a race and a
/// real race among them would go unseen (`make test-tsan`). NSLock is a pthread mutex, which
/// ThreadSanitizer follows.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock.
  public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
