import ChimeCore

/// A peer chimed refused before reading anything from it (another uid, too many connections,
/// shutting down) that turned out to speak HTTP/2: it is told why in its own protocol. Its first
/// request gets the refusal as a trailers-only status (what a gRPC client shows as the call's
/// error), then a GOAWAY carries the reason in its debug data, and the connection closes once
/// that is written. Nothing is read after that first request.
extension GRPCConnection {
  func refuseConnection(_ stream: Stream, _ refusal: ChimeError) {
    refuse(stream, refusal)
    // More requests read in the same chunk get the same answer; the GOAWAY (whose last stream
    // may never grow) is sent once.
    guard !refused else { return }
    session.goAway(.noError, debug: refusal.reason + ": " + refusal.message)
    // Inside the session's receive: the answer is taken and written once it returns, and the
    // socket closed after it (`flush`).
    refused = true
    flush()
  }
}
