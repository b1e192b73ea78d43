public import ChimeCore

/// The meeting point of one unary call's reply (from whichever thread delivers it) and its
/// waiting task. Whichever comes first is kept; the first result wins and later ones are
/// dropped, so a reply racing a cancellation or a deadline ends the call exactly once. The
/// caller either suspends for the outcome (`value`) or finds it already in (`take`).
public final class ReplySlot: Sendable {
  public typealias Reply = Result<[UInt8], ChimeError>
  public typealias Waiter = CheckedContinuation<Reply, Never>

  public init() {}

  private enum State {
    case pending(Waiter?)
    case finished(Reply)
    case resumed
  }

  private let state = Locked<State>(.pending(nil))

  /// Delivers the call's outcome: resumes the waiter, or keeps it until one arrives. False
  /// when the call had already ended.
  @discardableResult
  public func complete(_ reply: Reply) -> Bool {
    let (waiter, accepted): (Waiter?, Bool) = state.withLock { state in
      switch state {
      case .pending(let waiter?):
        state = .resumed
        return (waiter, true)
      case .pending(nil):
        state = .finished(reply)
        return (nil, true)
      case .finished, .resumed:
        return (nil, false)
      }
    }
    waiter?.resume(returning: reply)
    return accepted
  }

  /// The outcome if it is in (and from then on the slot is spent), else nil: for a caller that
  /// read its own reply instead of waiting.
  public func take() -> Reply? {
    state.withLock { state in
      guard case .finished(let reply) = state else { return nil }
      state = .resumed
      return reply
    }
  }

  /// True once an outcome is in (taken or not).
  public var isFinished: Bool {
    state.withLock { state in
      if case .pending = state { return false }
      return true
    }
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
