public import ChimeCore

/// How a client's calls reach the NotificationCenter: over the daemon's Unix socket
/// (`ChimeConnection`), or in the same process straight into its router (the daemon's
/// in-process transport, for tests). Payloads are the methods' encoded messages either way.
public protocol CallTransport: Sendable {
  /// Makes a unary call and returns the reply payload.
  ///
  /// - Throws: the call's non-OK status; UNAVAILABLE `CONNECTION_CLOSED` when the transport is
  ///   down; CANCELLED when the calling task is cancelled.
  func unary(_ method: Method, app: String, payload: [UInt8], deadline: Instant?) async throws(ChimeError) -> [UInt8]

  /// Makes a server-streaming call: one element per reply payload, `decode` skipping a payload
  /// by returning nil and ending the stream by throwing. The stream ends with the call's
  /// status when it is not OK; terminating it cancels the call.
  func serverStream<Element: Sendable>(
    _ method: Method, app: String, payload: [UInt8],
    decode: @escaping @Sendable ([UInt8]) throws(ChimeError) -> Element?
  ) -> AsyncThrowingStream<Element, any Error>

  /// Ends the transport; calls in flight fail with UNAVAILABLE `CONNECTION_CLOSED`.
  func close()
}
