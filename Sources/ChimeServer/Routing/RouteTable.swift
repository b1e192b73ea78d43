import ChimeCore
import ChimeWire

/// The router's handlers by method, each made from a descriptor of the call table (`CallTable`):
/// the method a handler answers and the codecs it decodes and encodes with come from one
/// place, and the service's types must match the descriptor's. Loop thread only.
struct RouteTable {
  /// Answers one call: decodes its payload and runs it; the call is finished now or later.
  typealias Handler = (any ServerCall, [UInt8]) throws(ChimeError) -> Void

  private(set) var handlers: [Method: Handler] = [:]
  /// The same bodies by method, before any decoding (`UnaryBody`, `StreamBody`): a transport
  /// that speaks no protobuf (D-Bus) hands them ChimeCore values through `CallRouter.call`.
  private(set) var bodies: [Method: Any] = [:]

  /// Routes a unary call: `body` gets the decoded request and a `reply` that encodes the
  /// response with the same descriptor and finishes the call. An error `body` throws (or a
  /// request that does not decode) becomes the call's status.
  mutating func unary<Request, Response>(
    _ descriptor: CallDescriptor<Request, Response>,
    _ body: @escaping (
      _ call: any ServerCall, _ request: Request, _ reply: @escaping (Result<Response, ChimeError>) -> Void
    ) throws(ChimeError) -> Void
  ) {
    add(descriptor.method) { call, payload throws(ChimeError) in
      let request = try descriptor.decodeRequest(payload)
      try body(call, request) { result in call.finish(result.map(descriptor.encodeResponse)) }
    }
    bodies[descriptor.method] = UnaryBody(run: body)
  }

  /// Routes a server-streaming call: `body` gets the decoded request and a `send` that encodes
  /// one message with the same descriptor (false once the call is over).
  mutating func serverStreaming<Request, Message>(
    _ descriptor: ServerStreamingCallDescriptor<Request, Message>,
    _ body: @escaping (_ call: any ServerCall, _ request: Request, _ send: @escaping (Message) -> Bool) throws(ChimeError) -> Void
  ) {
    add(descriptor.method) { call, payload throws(ChimeError) in
      let request = try descriptor.decodeRequest(payload)
      try body(call, request) { message in call.sendMessage(descriptor.encodeMessage(message)) }
    }
    bodies[descriptor.method] = StreamBody(run: body)
  }

  private mutating func add(_ method: Method, _ handler: @escaping Handler) {
    precondition(handlers[method] == nil, "\(method.rawValue) is routed twice")
    handlers[method] = handler
  }
}

/// A unary method's body, typed by its descriptor's request and response.
final class UnaryBody<Request, Response> {
  let run: (_ call: any ServerCall, _ request: Request, _ reply: @escaping (Result<Response, ChimeError>) -> Void) throws(ChimeError) -> Void
  init(run: @escaping (any ServerCall, Request, @escaping (Result<Response, ChimeError>) -> Void) throws(ChimeError) -> Void) {
    self.run = run
  }
}

/// A server-streaming method's body, typed by its descriptor's request and message.
final class StreamBody<Request, Message> {
  let run: (_ call: any ServerCall, _ request: Request, _ send: @escaping (Message) -> Bool) throws(ChimeError) -> Void
  init(run: @escaping (any ServerCall, Request, @escaping (Message) -> Bool) throws(ChimeError) -> Void) {
    self.run = run
  }
}
