import ChimeCore
import Synchronization

/// The meeting point of one unary call's reply (from the reader thread) and its waiting task.
/// Whichever comes first is kept; the first result wins and later ones are dropped.
final class UnaryCall: Sendable {
  typealias Reply = Result<[UInt8], ChimeError>
  typealias Waiter = CheckedContinuation<Reply, Never>

  private enum State {
    case pending(Waiter?)
    case finished(Reply)
    case resumed
  }

  private let state = Mutex<State>(.pending(nil))

  /// Delivers the call's outcome: resumes the waiter, or keeps it until one arrives.
  func complete(_ reply: Reply) {
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
  func wait(_ waiter: Waiter) {
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

/// Where the reader thread sends a server-streaming call's replies.
struct StreamSink: Sendable {
  /// Delivers one reply payload; false when it could not be decoded (the stream is then
  /// finished with that error and the call must be cancelled).
  let deliver: @Sendable ([UInt8]) -> Bool
  /// Ends the stream, with the call's status when it is not OK.
  let finish: @Sendable ((any Error)?) -> Void
}
