import ChimeCore
package import ChimeWire

/// The router's byte-level handlers by method, each made from a typed route (`Routes`,
/// generated from Protos/): the method a handler answers, the codecs it decodes and encodes
/// with and the handler requirement it runs come from one place. Loop thread only.
struct RouteTable {
  /// Answers one call: decodes its payload and runs it; the call is finished now or later.
  typealias Handler = (any ServerCall, [UInt8]) throws(ChimeError) -> Void

  private(set) var handlers: [Method: Handler] = [:]

  /// Routes a unary call: the decoded request goes to `route`'s handler with a `reply` that
  /// encodes the response with the same descriptor and finishes the call. An error the
  /// handler throws (or a request that does not decode) becomes the call's status.
  mutating func add<Request, Response>(_ route: UnaryRoute<Request, Response>, _ target: any CallHandling) {
    let descriptor = route.descriptor
    add(descriptor.method) { call, payload throws(ChimeError) in
      let request = try descriptor.decodeRequest(payload)
      try route.run(target, call, request) { result in call.finish(result.map(descriptor.encodeResponse)) }
    }
  }

  /// Routes a server-streaming call: the decoded request goes to `route`'s handler with a
  /// `send` that encodes one message with the same descriptor (false once the call is over).
  mutating func add<Request, Message>(_ route: StreamRoute<Request, Message>, _ target: any CallHandling) {
    let descriptor = route.descriptor
    add(descriptor.method) { call, payload throws(ChimeError) in
      let request = try descriptor.decodeRequest(payload)
      try route.run(target, call, request) { message in call.sendMessage(descriptor.encodeMessage(message)) }
    }
  }

  private mutating func add(_ method: Method, _ handler: @escaping Handler) {
    precondition(handlers[method] == nil, "\(method.rawValue) is routed twice")
    handlers[method] = handler
  }
}

/// A unary method's route: its descriptor and how its handler is called, typed by the
/// descriptor's request and response.
package struct UnaryRoute<Request, Response>: Sendable {
  typealias Reply = (Result<Response, ChimeError>) -> Void
  package let descriptor: CallDescriptor<Request, Response>
  let run: @Sendable (any CallHandling, any ServerCall, Request, @escaping Reply) throws(ChimeError) -> Void

  init(_ descriptor: CallDescriptor<Request, Response>,
       _ run: @escaping @Sendable (any CallHandling, any ServerCall, Request, @escaping Reply) throws(ChimeError) -> Void) {
    self.descriptor = descriptor
    self.run = run
  }
}

/// A server-streaming method's route, typed by its descriptor's request and message.
package struct StreamRoute<Request, Message>: Sendable {
  typealias Send = (Message) -> Bool
  package let descriptor: ServerStreamingCallDescriptor<Request, Message>
  let run: @Sendable (any CallHandling, any ServerCall, Request, @escaping Send) throws(ChimeError) -> Void

  init(_ descriptor: ServerStreamingCallDescriptor<Request, Message>,
       _ run: @escaping @Sendable (any CallHandling, any ServerCall, Request, @escaping Send) throws(ChimeError) -> Void) {
    self.descriptor = descriptor
    self.run = run
  }
}
