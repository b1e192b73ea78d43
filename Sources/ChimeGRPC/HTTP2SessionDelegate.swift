/// What an HTTP/2 server session tells its owner, synchronously from inside `receive` and
/// `takeOutput`. Loop thread only.
protocol HTTP2SessionDelegate: AnyObject {
  /// A request's HEADERS frame starts stream `stream`.
  func http2StreamOpened(_ stream: Int32)
  /// One header field of a request. Fields are checked against RFC 9113 §8 first: a malformed
  /// request is reset, and the delegate hears nothing more of it until it closes.
  func http2Header(_ stream: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
  /// A request's header block is complete; `endStream` when it carries no body.
  func http2HeadersDone(_ stream: Int32, endStream: Bool)
  /// Body bytes of a request, valid only during the call.
  func http2Data(_ stream: Int32, _ bytes: UnsafeRawBufferPointer)
  /// The client half-closed the stream after its body.
  func http2BodyDone(_ stream: Int32)
  /// The stream is gone: answered and done (`errorCode` 0), reset by either side, or its
  /// connection ended.
  func http2StreamClosed(_ stream: Int32, errorCode: UInt32)
  /// Fills `buffer` with the next body bytes of the response on `stream`. Returns the count,
  /// and `done` once nothing more will come (trailers follow); nil when nothing is ready yet
  /// (the stream waits for `resume`).
  func http2ResponseBytes(_ stream: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, done: Bool)?
  /// nghttp2 found the peer at fault (a malformed frame or header block, a broken flow-control
  /// rule) and answers with RST_STREAM or GOAWAY itself; `message` says what it was.
  func http2PeerError(_ message: String)
}
