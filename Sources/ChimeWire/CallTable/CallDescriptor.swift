public import ChimeCore

/// A unary NotificationCenter call: its method path paired with the codecs of its request and
/// its one response. Only `CallTable` makes them, so the pairing is written once; the client sends
/// through them and the server's router answers through them, and a request or response of the
/// wrong type does not compile.
public struct CallDescriptor<Request, Response>: Sendable {
  /// The method, whose raw value is the path on the wire.
  public let method: Method
  /// Encodes the request the client sends.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public let encodeRequest: @Sendable (Request) throws(ChimeError) -> [UInt8]
  /// Decodes the request the server received (INVALID_ARGUMENT `MALFORMED_PAYLOAD`, ...).
  public let decodeRequest: @Sendable ([UInt8]) throws(ChimeError) -> Request
  /// Encodes the server's answer.
  public let encodeResponse: @Sendable (Response) -> [UInt8]
  /// Decodes the answer the client received (INVALID_ARGUMENT `MALFORMED_PAYLOAD`, ...).
  public let decodeResponse: @Sendable ([UInt8]) throws(ChimeError) -> Response

  init(
    _ method: Method,
    encodeRequest: @escaping @Sendable (Request) throws(ChimeError) -> [UInt8],
    decodeRequest: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Request,
    encodeResponse: @escaping @Sendable (Response) -> [UInt8],
    decodeResponse: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Response
  ) {
    precondition(!method.isServerStreaming, "\(method) is a server-streaming method")
    self.method = method
    self.encodeRequest = encodeRequest
    self.decodeRequest = decodeRequest
    self.encodeResponse = encodeResponse
    self.decodeResponse = decodeResponse
  }
}
