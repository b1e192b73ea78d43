import ChimeCore

/// Where the reply thread sends a server-streaming call's replies.
struct StreamSink: Sendable {
  /// Delivers one reply payload; false when it could not be decoded (the stream is then
  /// finished with that error and the call must be cancelled).
  let deliver: @Sendable ([UInt8]) -> Bool
  /// Ends the stream, with the call's status when it is not OK.
  let finish: @Sendable ((any Error)?) -> Void
}
