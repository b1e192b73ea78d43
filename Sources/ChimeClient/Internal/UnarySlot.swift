import ChimeCore
import Synchronization

/// The meeting point of one unary call's reply (from whichever thread delivers it) and its
/// caller. The first outcome wins and later ones are dropped, so a reply racing a cancellation
/// or a deadline ends the call exactly once. The caller either finds the outcome already in
/// (`take`, after reading its own reply) or suspends for it (`value`).
final class UnarySlot: Sendable {
  typealias Reply = Result<[UInt8], ChimeError>
  typealias Waiter = CheckedContinuation<Reply, Never>

  private enum State {
    case pending(Waiter?)
    case finished(Reply)
    case taken
  }

  private let state = Mutex<State>(.pending(nil))

  /// Delivers the call's outcome: resumes the waiter, or keeps it until one asks. False when
  /// the call had already ended.
  @discardableResult
  func complete(_ reply: Reply) -> Bool {
    let (waiter, accepted): (Waiter?, Bool) = state.withLock { state in
      switch state {
      case .pending(let waiter?):
        state = .taken
        return (waiter, true)
      case .pending(nil):
        state = .finished(reply)
        return (nil, true)
      case .finished, .taken:
        return (nil, false)
      }
    }
    waiter?.resume(returning: reply)
    return accepted
  }

  /// The outcome if it is in (and from then on the slot is spent), else nil.
  func take() -> Reply? {
    state.withLock { state in
      guard case .finished(let reply) = state else { return nil }
      state = .taken
      return reply
    }
  }

  /// True once an outcome is in (taken or not).
  var isFinished: Bool {
    state.withLock { state in
      if case .pending = state { return false }
      return true
    }
  }

  /// Waits for the outcome; `onCancel` runs if the task is cancelled first (it should complete
  /// the slot, e.g. with CANCELLED).
  func value(onCancel: @escaping @Sendable () -> Void) async -> Reply {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: Waiter) in
        let ready: Reply? = state.withLock { state in
          switch state {
          case .pending:
            state = .pending(waiter)
            return nil
          case .finished(let reply):
            state = .taken
            return reply
          case .taken:
            preconditionFailure("a unary call was awaited twice")
          }
        }
        if let ready { waiter.resume(returning: ready) }
      }
    } onCancel: {
      onCancel()
    }
  }
}
