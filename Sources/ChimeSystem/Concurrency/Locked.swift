import Glibc

/// A value behind a lock, for state that threads other than the loop's share (a cache, a reply
/// slot, a clock a test moves).
///
/// Not `Synchronization.Mutex`: on Linux its lock is a futex inside the standard library, which
/// ThreadSanitizer does not instrument, so every access it guards is reported as a race and a
/// real race among them would go unseen (`make test-tsan`). A pthread mutex, which
/// ThreadSanitizer follows, allocated with the value in one block (not NSLock, whose Linux
/// version allocates a mutex and a condition more on every client call).
public struct Locked<Value>: @unchecked Sendable {
  private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    deinit {
      _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
  }

  private let storage: Storage
  /// The value and the mutex inside `storage`, taken once: `storage` lives as long as any copy
  /// of this struct. Taking them at each lock (`withUnsafeMutablePointers`) was a Swift access
  /// to the buffer's header outside the lock, which ThreadSanitizer reported as racing with
  /// another thread's write of the value under the lock.
  private let value: UnsafeMutablePointer<Value>
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init(_ value: Value) {
    // `create` returns a ManagedBuffer of the dynamic type it was called on.
    storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    (self.value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
    pthread_mutex_init(mutex, nil)
  }

  /// Runs `body` with the value, holding the lock.
  public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    // `storage` (which `value` and `mutex` point into) lives as long as `self`, which the
    // caller holds for the call.
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
