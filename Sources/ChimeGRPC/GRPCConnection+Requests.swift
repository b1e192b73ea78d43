import ChimeCore

/// Whether a request can be served (method, content type, encoding, timeout, target), and
/// answering the ones that cannot.
extension GRPCConnection {
  /// What is wrong with a request's headers, as the answer to send; nil when it can be served
  /// (its target is set then).
  func check(_ stream: Stream) -> GRPCRefusal? {
    if stream.headerBytes > limits.maxHeaderListBytes {
      return .status(ChimeError(.headerListTooLarge, "the request's header list is over chimed's limit of \(limits.maxHeaderListBytes) bytes"))
    }
    guard stream.headers.method == "POST" else { return .http(405) }
    guard let contentType = stream.headers.contentType,
          contentType == "application/grpc" || contentType.hasPrefix("application/grpc+") || contentType.hasPrefix("application/grpc;")
    else { return .http(415) }
    if let encoding = stream.headers.encoding, encoding != "identity" {
      return .status(ChimeError(.compressionUnsupported, "grpc-encoding \(encoding.prefix(40)) is not supported: chimed accepts identity only"))
    }
    if let timeout = stream.headers.timeout, GRPCStatus.timeoutMillis(timeout) == nil {
      return .status(ChimeError(.grpcProtocolViolation, "malformed grpc-timeout \"\(timeout.prefix(40))\""))
    }
    let path = stream.headers.path ?? ""
    guard let target = GRPCTarget(path: path) else {
      return .status(ChimeError(.unknownMethod, "unknown method \"\(path.prefix(200))\""))
    }
    stream.target = target
    return nil
  }

  /// Answers `stream` with `refusal`. A client still sending reads the answer and stops; what
  /// it sent meanwhile is read and dropped (RST_STREAM here would overtake the answer).
  func refuse(_ stream: Stream, _ refusal: GRPCRefusal) {
    guard !stream.ended else { return }
    switch refusal {
    case .status(let error):
      stream.call?.cancelled()
      end(stream, status: error)
    case .http(let status):
      stream.ended = true
      release(stream, stream.unconsumed)
      stream.responding = true
      // With a line saying what chimed takes, for whoever reads the answer (a body, as an HTTP
      // error page has, that flow control holds like any other).
      session.respond(stream.id, headers: HTTP2Session.HeaderBlock([(":status", "\(status)"), ("content-type", "text/plain; charset=utf-8")]),
                      plainBody: Self.notGRPCBody)
    }
  }

  func refuse(_ stream: Stream, _ error: ChimeError) { refuse(stream, .status(error)) }

  private static let notGRPCBody = Array("chimed serves gRPC here: POST with content-type application/grpc\n".utf8)

  /// Gives `count` of `stream`'s received bytes back to the flow-control windows.
  func release(_ stream: Stream, _ count: Int) {
    let count = min(count, stream.unconsumed)
    stream.unconsumed -= count
    session.consumed(stream.id, count)
  }

  /// Sends a message the transport's own services answered (a reflection or health message).
  func sendLocal(_ message: [UInt8], on stream: Stream) {
    _ = enqueue(message, on: stream)
  }
}

/// How a request is refused before it reaches a service.
enum GRPCRefusal {
  /// A gRPC status in trailers.
  case status(ChimeError)
  /// A plain HTTP status (not a gRPC request at all: wrong method or content type).
  case http(Int)
}
