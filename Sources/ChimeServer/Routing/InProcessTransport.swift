import ChimeSystem
import ChimeCore
import ChimeWire

/// Calls straight into a running daemon's router, with no socket and no framing: the same
/// encoded request and reply messages, the same router, service and statuses. Tests drive the
/// service through it, and run the same test bodies over the real socket.
final class InProcessTransport: CallTransport {
  private let loop: EventLoop
  /// Hands a call to the router on the loop thread; false when the daemon is not serving.
  private let begin: @Sendable (InProcessCall, CallHeader, [UInt8]) -> Bool
  private let closed = Locked(false)

  init(loop: EventLoop, begin: @escaping @Sendable (InProcessCall, CallHeader, [UInt8]) -> Bool) {
    self.loop = loop
    self.begin = begin
  }

  func unary(_ method: Method, app: String, payload: [UInt8], deadline: Instant?) async throws(ChimeError) -> [UInt8] {
    let slot = ReplySlot()
    let call = InProcessCall(method: method, app: app, end: { slot.complete($0) })
    guard start(call, CallHeader(method: method.rawValue, appID: app, deadline: deadline), payload) else {
      throw Self.closedError
    }
    let reply = await slot.value { [loop] in
      let cancelled = ChimeError(.cancelled, "the \(method.rawValue) call was cancelled")
      slot.complete(.failure(cancelled))
      loop.execute { call.cancel(with: cancelled) }
    }
    return try reply.get()
  }

  func serverStream<Element: Sendable>(
    _ method: Method, app: String, payload: [UInt8],
    decode: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Element?
  ) -> AsyncThrowingStream<Element, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: (any Error).self)
    let call = InProcessCall(method: method, app: app, message: { bytes in
      do {
        if let element = try decode(bytes) {
          if case .terminated = continuation.yield(element) { return false }
        }
        return true
      } catch {
        continuation.finish(throwing: error)
        return false
      }
    }, end: { result in
      if case .failure(let error) = result { continuation.finish(throwing: error) } else { continuation.finish() }
    })
    continuation.onTermination = { [loop] _ in
      loop.execute { call.cancel(with: ChimeError(.cancelled, "the stream was ended by its consumer")) }
    }
    if !start(call, CallHeader(method: method.rawValue, appID: app), payload) {
      continuation.finish(throwing: Self.closedError)
    }
    return stream
  }

  /// Later calls fail with UNAVAILABLE `CONNECTION_CLOSED`; calls in flight run to their end.
  func close() {
    closed.withLock { $0 = true }
  }

  private func start(_ call: InProcessCall, _ header: CallHeader, _ payload: [UInt8]) -> Bool {
    guard !closed.withLock({ $0 }) else { return false }
    return begin(call, header, payload)
  }

  private static var closedError: ChimeError {
    ChimeError(.connectionClosed, "the in-process transport is closed or chimed has stopped")
  }
}
