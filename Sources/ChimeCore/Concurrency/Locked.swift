import Glibc

/// A value behind a lock, for state that threads other than the loop's share (a cache, a reply
/// slot, a clock a test moves).
///
/// Not `Synchronization.Mutex`: on Linux its lock is a futex inside the standard library, which
/// ThreadSanitizer does not instrument, so every access it guards is reported as a race and a
/// real race among them would go unseen (`make test-tsan`). A pthread mutex, which
/// ThreadSanitizer follows, allocated with the value in one block (not NSLock, whose Linux
/// version allocates a mutex and a condition more: +5,000 instructions per client call).
public struct Locked<Value>: @unchecked Sendable {
  private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    deinit {
      _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
  }

  private let storage: Storage

  public init(_ value: Value) {
    // `create` returns a ManagedBuffer of the dynamic type it was called on.
    storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_init($0, nil) }
  }

  /// Runs `body` with the value, holding the lock.
  public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    // `storage` lives as long as `self`, which the caller holds for the call.
    let (value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
