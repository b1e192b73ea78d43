import ChimeCore
import ChimeWire

/// A call made through the in-process transport: the router answers it like a socket
/// connection's call, and its replies go straight to the waiting task or stream. Created on
/// any thread, then touched only on the loop thread (hence `@unchecked Sendable`).
final class InProcessCall: ServerCall, @unchecked Sendable {
  let method: Method
  let app: String
  var onCancel: () -> Void = {}
  /// In-process callers are the daemon's host: they act as declared.
  var confinedApp: String? { nil }
  var deadline: Instant?
  private var finished = false
  private let message: @Sendable ([UInt8]) -> Bool
  private let end: @Sendable (Result<[UInt8], ChimeError>) -> Void
  /// Run once the call is over (the transport forgets it).
  var onFinished: () -> Void = {}

  /// `message` takes a stream's messages (false: the consumer is gone); `end` the final result.
  init(method: Method, app: String, message: @escaping @Sendable ([UInt8]) -> Bool = { _ in false },
       end: @escaping @Sendable (Result<[UInt8], ChimeError>) -> Void) {
    self.method = method
    self.app = app
    self.message = message
    self.end = end
  }

  func sendMessage(_ payload: [UInt8]) -> Bool {
    guard !finished else { return false }
    return message(payload)
  }

  func finish(_ result: Result<[UInt8], ChimeError>) {
    guard !finished else { return }
    finished = true
    onCancel = {}
    onFinished()
    onFinished = {}
    end(result)
  }

  /// The caller went away or the daemon stops: the call's cancel action runs, then it ends
  /// with `error`.
  func cancel(with error: ChimeError) {
    guard !finished else { return }
    let action = onCancel
    onCancel = {}
    action()
    finish(.failure(error))
  }
}
