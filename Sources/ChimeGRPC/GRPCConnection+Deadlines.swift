import ChimeCore

/// Streams end at their `grpc-timeout`, whatever they are doing then (waiting for a body, a
/// unary answer not given yet, a Subscribe or Watch stream, a reflection stream): the client
/// gets DEADLINE_EXCEEDED and the call is cancelled, as gRPC's HTTP/2 protocol has the server
/// do. One timer per connection, armed for its earliest deadline on the service's clock (the
/// one the router checks a call's deadline against); a stream that ends gives its deadline up.
extension GRPCConnection {
  /// Starts `stream`'s deadline `millis` from now.
  func startDeadline(_ stream: Stream, millis: Int64) {
    let deadline = clock.now().adding(millis: millis)
    stream.deadline = deadline
    if let armed = armedDeadline, armed <= deadline { return }
    arm(deadline)
  }

  /// `stream` is over: its deadline no longer needs the timer.
  func forgetDeadline(_ stream: Stream) {
    guard let deadline = stream.deadline else { return }
    stream.deadline = nil
    if deadline == armedDeadline { armNextDeadline() }
  }

  /// The timer fired, or the clock moved: streams past their deadline end.
  func expireDeadlines() {
    guard !failed, !socket.isClosed else { return }
    let now = clock.now()
    let due = streams.values.filter { stream in stream.deadline.map { $0 <= now } ?? false }
    guard !due.isEmpty else { return armNextDeadline() }
    let error = ChimeError(.deadlineExceeded, "the call's deadline (grpc-timeout) passed")
    for stream in due.sorted(by: { $0.id < $1.id }) {
      stream.deadline = nil
      guard !stream.ended else { continue }
      stream.call?.cancelled()
      if stream.unsent > 0 {
        // Replies held by flow control would keep the status from the client: the stream is
        // reset instead (CANCEL, which clients past their own deadline read as such).
        stream.ended = true
        release(stream, stream.unconsumed)
        queuedBytes -= stream.unsent
        stream.outbox = []
        stream.sent = 0
        session.reset(stream.id, .cancel)
      } else {
        end(stream, status: error)
      }
    }
    armNextDeadline()
    flush()
  }

  private func armNextDeadline() {
    guard let next = streams.values.compactMap(\.deadline).min() else {
      armedDeadline = nil
      deadlineTimer?.disarm()
      return
    }
    arm(next)
  }

  private func arm(_ deadline: Instant) {
    if deadlineTimer == nil {
      deadlineTimer = makeTimer { [weak self] in self?.expireDeadlines() }
    }
    armedDeadline = deadline
    deadlineTimer?.armOnce(afterMillis: UInt64(max(0, deadline.millis(since: clock.now()))))
  }
}
