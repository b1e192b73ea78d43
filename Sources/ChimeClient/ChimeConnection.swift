public import ChimeCore
import ChimeSystem
public import ChimeWire

/// One connection to `chimed` over its Unix socket. Calls from many tasks share it: each gets its
/// own call id, and replies, which may arrive in any order, are matched by id.
///
/// A unary call that is the only one in flight reads its own reply; otherwise the process's
/// reply thread (one for all connections, started on first need) decodes frames and resumes the
/// waiting calls. Writes are serialized.
/// When the connection drops (or `close()` is called) every call in flight fails, and every later
/// one fails at once, with UNAVAILABLE `CONNECTION_CLOSED`. Releasing the last reference closes the
/// connection too; an open stream from `serverStream` keeps it alive until the stream ends.
public final class ChimeConnection: CallTransport {
  /// The path the connection was made to.
  public let socketPath: String
  private let core: ConnectionCore

  /// Connects to the daemon.
  ///
  /// - Parameter maxFrameBytes: the largest frame accepted from the daemon, and the largest call
  ///   sent to it (a larger call fails at once with RESOURCE_EXHAUSTED `FRAME_TOO_LARGE`).
  /// - Throws: UNAVAILABLE `DAEMON_UNAVAILABLE` when nothing listens at `socketPath` (the message
  ///   names the path and the errno text); INVALID_ARGUMENT `SOCKET_PATH_TOO_LONG` for a path over
  ///   107 bytes, `INVALID_SOCKET_PATH` for an empty one.
  public convenience init(socketPath: String, maxFrameBytes: Int = Limits.maxFrameBytesDefault) throws(ChimeError) {
    try self.init(socketPath: socketPath, maxFrameBytes: maxFrameBytes, ownReadBudget: ConnectionCore.defaultOwnReadBudget)
  }

  /// - Parameter ownReadBudget: how long a caller alone in flight reads its own reply before
  ///   handing over to the reply thread (tests set 0: always the thread).
  init(socketPath: String, maxFrameBytes: Int, ownReadBudget: Duration) throws(ChimeError) {
    self.socketPath = socketPath
    let fd = try UnixSocket.connect(path: socketPath)
    core = ConnectionCore(fd: fd, maxFrameBytes: maxFrameBytes, ownReadBudget: ownReadBudget)
  }

  /// True once the connection handed its socket to the reply thread (tests).
  var handedToReplyThread: Bool { core.handedToReplyThread }

  deinit {
    core.terminate("the connection was released")
  }

  /// True once the connection is down.
  public var isClosed: Bool { core.isClosed }

  /// Makes a unary call and returns the reply payload.
  ///
  /// Cancelling the task sends a Cancel frame and throws CANCELLED at once.
  ///
  /// - Throws: the call's non-OK status as the daemon sent it; UNAVAILABLE `CONNECTION_CLOSED`;
  ///   RESOURCE_EXHAUSTED `FRAME_TOO_LARGE` for a payload over the frame limit.
  public func unary(_ method: Method, app: String, payload: [UInt8], deadline: Instant? = nil) async throws(ChimeError) -> [UInt8] {
    if Task.isCancelled { throw Self.cancelled(method) }
    let call = ReplySlot()
    let id = try core.register(.unary(call))
    let alone = ConnectionCore.enterCall()
    defer { ConnectionCore.leaveCall() }
    let start = ContinuousClock.now
    // The deadline holds on this side too: a peer that accepted and never answers (a hung
    // daemon, another program on the socket) ends the call with DEADLINE_EXCEEDED.
    let timeoutMillis = deadline.map { max(0, $0.millis(since: SystemWallClock().now())) }
    do {
      try core.send(core.callFrame(id: id, method: method, app: app, payload: payload, deadline: deadline))
    } catch {
      core.remove(id)
      throw error
    }
    if alone {
      // The only call in flight: read the reply here, up to the deadline or the budget.
      var limit = start + core.ownReadBudget
      if let timeoutMillis { limit = min(limit, start + .milliseconds(timeoutMillis)) }
      if core.readOwnReply(call, until: limit), let reply = call.take() { return try reply.get() }
    } else {
      core.ensureReader()
    }
    let expiry = timeoutMillis.map { millis in
      let name = method.rawValue.split(separator: "/").last.map(String.init) ?? method.rawValue
      let left = max(0, millis - Int64((ContinuousClock.now - start) / .milliseconds(1)))
      return DeadlineTimer.shared.schedule(afterMillis: left) { [core, socketPath] in
        guard core.cancel(id) != nil else { return }
        call.complete(.failure(ChimeError(.deadlineExceeded,
                                          "no answer to \(name) from \(socketPath) within \(millis) ms (the call's deadline)")))
      }
    }
    let reply = await call.value { [core] in
      if core.cancel(id) != nil { call.complete(.failure(Self.cancelled(method))) }
    }
    if let expiry { DeadlineTimer.shared.cancel(expiry) }
    return try reply.get()
  }

  /// Makes a server-streaming call: one element per reply payload, ending when the daemon ends the
  /// stream (throwing its status if not OK) or the connection drops (UNAVAILABLE
  /// `CONNECTION_CLOSED`). Cancelling the consuming task, or dropping or terminating the stream,
  /// sends a Cancel frame.
  public func serverStream(_ method: Method, app: String, payload: [UInt8]) -> AsyncThrowingStream<[UInt8], any Error> {
    serverStream(method, app: app, payload: payload) { bytes throws(ChimeError) in bytes }
  }

  /// `serverStream` with each payload decoded on the reply thread; `decode` returning nil skips a
  /// payload, throwing ends the stream with the error (and cancels the call).
  public func serverStream<Element: Sendable>(
    _ method: Method,
    app: String,
    payload: [UInt8],
    decode: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Element?
  ) -> AsyncThrowingStream<Element, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: (any Error).self)
    let sink = StreamSink(
      deliver: { bytes in
        do {
          if let element = try decode(bytes) { continuation.yield(element) }
          return true
        } catch {
          continuation.finish(throwing: error)
          return false
        }
      },
      finish: { continuation.finish(throwing: $0) }
    )
    let id: UInt64
    do {
      id = try core.register(.stream(sink))
    } catch {
      continuation.finish(throwing: error)
      return stream
    }
    // Holding `self` keeps the connection open for as long as the stream runs.
    continuation.onTermination = { [self] termination in
      if case .cancelled = termination { _ = self.core.cancel(id) }
    }
    do {
      try core.send(core.callFrame(id: id, method: method, app: app, payload: payload, deadline: nil))
    } catch {
      core.remove(id)
      continuation.finish(throwing: error)
      return stream
    }
    core.ensureReader()
    return stream
  }

  /// Writes bytes to the socket as they are, for tests that send malformed frames.
  ///
  /// - Throws: UNAVAILABLE `CONNECTION_CLOSED`.
  public func sendRaw(_ bytes: [UInt8]) throws(ChimeError) {
    try core.send(bytes)
  }

  /// Closes the connection; calls in flight fail with UNAVAILABLE `CONNECTION_CLOSED`.
  public func close() {
    core.terminate("the client closed the connection")
  }

  private static func cancelled(_ method: Method) -> ChimeError {
    ChimeError(.cancelled, "the \(method.rawValue) call was cancelled")
  }
}
