import Synchronization

/// Serializes calls into libical (its component iterators and `icalerrno` are shared state).
final class LibicalLock: Sendable {
  private let mutex = Mutex<Void>(())

  func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    try mutex.withLock { _ throws(E) -> T in try body() }
  }
}
