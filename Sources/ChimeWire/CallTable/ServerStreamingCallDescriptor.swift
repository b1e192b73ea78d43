public import ChimeCore

/// A server-streaming NotificationCenter call (`Subscribe`): its method path paired with the
/// codecs of its request and of each message of the stream. Only `CallTable` makes them.
public struct ServerStreamingCallDescriptor<Request, Message>: Sendable {
  /// The method, whose raw value is the path on the wire.
  public let method: Method
  /// Encodes the request the client sends.
  public let encodeRequest: @Sendable (Request) throws(ChimeError) -> [UInt8]
  /// Decodes the request the server received (INVALID_ARGUMENT `MALFORMED_PAYLOAD`, ...).
  public let decodeRequest: @Sendable ([UInt8]) throws(ChimeError) -> Request
  /// Encodes one message of the stream.
  public let encodeMessage: @Sendable (Message) -> [UInt8]
  /// Decodes one message of the stream (INVALID_ARGUMENT `MALFORMED_PAYLOAD`, ...).
  public let decodeMessage: @Sendable ([UInt8]) throws(ChimeError) -> Message

  init(
    _ method: Method,
    encodeRequest: @escaping @Sendable (Request) throws(ChimeError) -> [UInt8],
    decodeRequest: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Request,
    encodeMessage: @escaping @Sendable (Message) -> [UInt8],
    decodeMessage: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Message
  ) {
    precondition(method.isServerStreaming, "\(method) is a unary method")
    self.method = method
    self.encodeRequest = encodeRequest
    self.decodeRequest = decodeRequest
    self.encodeMessage = encodeMessage
    self.decodeMessage = decodeMessage
  }
}
