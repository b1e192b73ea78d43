import Glibc

/// Where one thread waits, for a bounded time, to be woken by another: a count of wake-ups
/// (permits) behind a mutex, and a condition on CLOCK_MONOTONIC (a wall clock set back does
/// not stretch a wait). A wake-up given before the wait is kept, so none is lost in between.
///
/// `wake` signals after unlocking: the woken thread does not find the mutex still held and
/// sleep on it again, a second wake-up that libuv's work queue pays on each item it queues
/// (it signals its condition under its mutex).
public final class Parking: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Guarded by `mutex`.
  private var permits = 0

  public init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Gives one permit, waking the waiter if there is one.
  public func wake() {
    pthread_mutex_lock(mutex)
    permits += 1
    pthread_mutex_unlock(mutex)
    pthread_cond_signal(condition)
  }

  /// Takes a permit, waiting up to `nanoseconds` for one (nil: as long as it takes). False when
  /// the time ran out first.
  public func wait(nanoseconds: Int?) -> Bool {
    var deadline = timespec()
    if let nanoseconds {
      clock_gettime(CLOCK_MONOTONIC, &deadline)
      let total = Int(deadline.tv_nsec) + nanoseconds
      deadline.tv_sec += total / 1_000_000_000
      deadline.tv_nsec = total % 1_000_000_000
    }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while permits == 0 {
      if nanoseconds == nil {
        pthread_cond_wait(condition, mutex)
      } else if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
        break
      }
    }
    guard permits > 0 else { return false }
    permits -= 1
    return true
  }
}
