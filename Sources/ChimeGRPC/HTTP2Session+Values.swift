/// The values an `HTTP2Session` is made with and answers in: plain data, no nghttp2 here.
extension HTTP2Session {
  /// An HTTP/2 error code (RFC 9113 §7), for RST_STREAM and GOAWAY.
  struct ErrorCode: Equatable {
    let rawValue: UInt32
    static let noError = ErrorCode(rawValue: 0x0)
    static let protocolError = ErrorCode(rawValue: 0x1)
    static let internalError = ErrorCode(rawValue: 0x2)
    static let refusedStream = ErrorCode(rawValue: 0x7)
    static let cancel = ErrorCode(rawValue: 0x8)
    static let enhanceYourCalm = ErrorCode(rawValue: 0xb)
  }

  struct Settings {
    var maxConcurrentStreams: UInt32
    var maxHeaderListBytes: UInt32
    /// The per-stream receive window (at least one whole message); the connection's is four
    /// times it.
    var initialWindowBytes: UInt32
    var maxFrameBytes: UInt32 = 16_384
  }
}
