public import ChimeCore
import Synchronization

/// The meeting point of one unary call's reply (from whichever thread delivers it) and its
/// waiting task. Whichever comes first is kept; the first result wins and later ones are
/// dropped, so a reply racing a cancellation resumes the task exactly once.
public final class ReplySlot: Sendable {
  public typealias Reply = Result<[UInt8], ChimeError>
  public typealias Waiter = CheckedContinuation<Reply, Never>

  public init() {}

  private enum State {
    case pending(Waiter?)
    case finished(Reply)
    case resumed
  }

  private let state = Mutex<State>(.pending(nil))

  /// Delivers the call's outcome: resumes the waiter, or keeps it until one arrives.
  public func complete(_ reply: Reply) {
    let waiter: Waiter? = state.withLock { state in
      switch state {
      case .pending(let waiter?):
        state = .resumed
        return waiter
      case .pending(nil):
        state = .finished(reply)
        return nil
      case .finished, .resumed:
        return nil
      }
    }
    waiter?.resume(returning: reply)
  }

  /// Waits for the outcome; resumes at once if it is already in. Called once per call.
  public func wait(_ waiter: Waiter) {
    let ready: Reply? = state.withLock { state in
      switch state {
      case .pending:
        state = .pending(waiter)
        return nil
      case .finished(let reply):
        state = .resumed
        return reply
      case .resumed:
        preconditionFailure("a unary call was awaited twice")
      }
    }
    if let ready { waiter.resume(returning: ready) }
  }
}

extension ReplySlot {
  /// Waits for the reply; `onCancel` runs if the task is cancelled first (it should complete
  /// the slot, e.g. with CANCELLED).
  public func value(onCancel: @escaping @Sendable () -> Void) async -> Reply {
    await withTaskCancellationHandler {
      await withCheckedContinuation { wait($0) }
    } onCancel: {
      onCancel()
    }
  }
}
