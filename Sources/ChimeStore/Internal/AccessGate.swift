import ChimeSystem
import ChimeCore
import Dispatch

/// Lets accesses in and, once closed, keeps new ones out and waits for those inside.
///
/// `DatabasePool.close()` is not safe against a read or write in progress: it would run on a
/// connection the close just finalised and crash in SQLite. Every access therefore enters this
/// gate first, and `close()` closes the pool only after the last one has left.
final class AccessGate: Sendable {
  private struct State {
    var closed = false
    var inside = 0
  }

  private let state = Locked(State())
  /// Signalled by the last access to leave after `close()` began waiting.
  private let drained = DispatchSemaphore(value: 0)

  /// Runs `body` as one access, or returns nil without running it when the gate is closed.
  func pass<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T? {
    let entered = state.withLock { state in
      guard !state.closed else { return false }
      state.inside += 1
      return true
    }
    guard entered else { return nil }
    defer { leave() }
    return try body()
  }

  /// Closes the gate and waits until no access is inside. Returns false when it was already
  /// closed (someone else closes what it guards).
  func close() -> Bool {
    let (first, inside) = state.withLock { state in
      let first = !state.closed
      state.closed = true
      return (first, state.inside)
    }
    guard first else { return false }
    if inside > 0 { drained.wait() }
    return true
  }

  private func leave() {
    let last = state.withLock { state in
      state.inside -= 1
      return state.closed && state.inside == 0
    }
    if last { drained.signal() }
  }
}
