internal import CNGHTTP2

/// An nghttp2 server session: HTTP/2 framing, HPACK and flow control from the library, fed
/// with the bytes read from a connection and asked for the bytes to write back. The only
/// file of the gRPC transport that calls nghttp2. Loop thread only.
final class HTTP2Session {
  weak var delegate: (any HTTP2SessionDelegate)?
  private var session: OpaquePointer?
  /// RFC 9113 §8's state of each open request stream (until it closes), once its header block
  /// is complete.
  private var requests: [Int32: HTTP2RequestRules] = [:]
  /// The request header block being received and its rules, kept here until the block ends:
  /// one arrives whole (HTTP/2 puts no other frame inside it), and a lookup and write-back in
  /// `requests` per field cost more than the field's own checks.
  private var receiving: (stream: Int32, rules: HTTP2RequestRules)?
  /// Streams found malformed and reset: nothing more of them reaches the delegate.
  private var rejected: Set<Int32> = []
  /// Why each stream was reset as malformed, until the reset is sent (and logged).
  private var malformed: [Int32: String] = [:]
  private var streamIDs = HTTP2StreamIDs()
  /// A connection error found in a callback, which `receive` throws.
  private var connectionError: HTTP2Failure?
  /// What is left to send of each plain response's body (`respond(_:headers:plainBody:)`).
  private var plainBodies: [Int32: ArraySlice<UInt8>] = [:]

  init(settings: Settings) {
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, user in
      guard let header, header.pointee.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
      return HTTP2Session.of(user).headersBegin(on: header.pointee.stream_id)
    }
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
      guard let frame, chime_h2_is_headers(frame) != 0 else { return 0 }
      HTTP2Session.of(user).headerBlockBegins(frame)
      return 0
    }
    nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
      guard let frame, chime_h2_is_headers(frame) != 0, let name, let value else { return 0 }
      HTTP2Session.of(user).header(frame, name: UnsafeBufferPointer(start: name, count: nameLength),
                                   value: UnsafeBufferPointer(start: value, count: valueLength))
      return 0
    }
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
      guard let frame else { return 0 }
      HTTP2Session.of(user).frameReceived(frame)
      return 0
    }
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, user in
      guard let data else { return 0 }
      HTTP2Session.of(user).dataReceived(stream, UnsafeRawBufferPointer(start: data, count: length))
      return 0
    }
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, errorCode, user in
      let session = HTTP2Session.of(user)
      // Each looked up only when it holds anything: a lookup hashes the key even in an empty set.
      if !session.requests.isEmpty { session.requests.removeValue(forKey: stream) }
      if session.receiving?.stream == stream { session.receiving = nil }
      if !session.rejected.isEmpty { session.rejected.remove(stream) }
      if !session.plainBodies.isEmpty { session.plainBodies.removeValue(forKey: stream) }
      session.delegate?.http2StreamClosed(stream, errorCode: errorCode)
      return 0
    }
    // A GOAWAY or RST_STREAM nghttp2 sends for a protocol error is what the peer did wrong
    // (the transport's own resets carry CANCEL, REFUSED_STREAM or ENHANCE_YOUR_CALM).
    nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, user in
      guard let frame else { return 0 }
      let code = ErrorCode(rawValue: chime_h2_frame_error_code(frame))
      guard ![.noError, .cancel, .refusedStream, .enhanceYourCalm].contains(code) else { return 0 }
      var debug: UnsafePointer<UInt8>?
      let length = chime_h2_goaway_debug(frame, &debug)
      let detail = debug.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
      let session = HTTP2Session.of(user)
      let stream = chime_h2_frame_stream(frame)
      let reason = session.malformed.removeValue(forKey: stream).map { ": " + $0 } ?? (detail.isEmpty ? "" : ": " + detail)
      session.delegate?.http2PeerError("HTTP/2 error \(code.rawValue) on stream \(stream)" + reason)
      return 0
    }
    // nghttp2 checks the client's preface. Received bytes go back to the flow-control windows
    // only when the transport has handed them on (`consumed`): what a connection holds of
    // requests not yet complete is bounded by its window, not by what a client chooses to send.
    var options: OpaquePointer?
    nghttp2_option_new(&options)
    defer { nghttp2_option_del(options) }
    nghttp2_option_set_no_auto_window_update(options, 1)
    // nghttp2's HTTP checks refuse an :authority holding a "/" or empty, and gRPC clients on a
    // Unix socket send the socket's path there (grpcurl, grpc-go), and no option lets them
    // through: those checks are off, and RFC 9113 §8's rules are this session's
    // (`HTTP2RequestRules`, which accept any authority). Framing, HPACK and flow control stay
    // nghttp2's.
    nghttp2_option_set_no_http_messaging(options, 1)
    nghttp2_session_server_new2(&session, callbacks, Unmanaged.passUnretained(self).toOpaque(), options)
    var entries = [
      chime_h2_setting(Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), settings.maxConcurrentStreams),
      chime_h2_setting(Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), settings.maxHeaderListBytes),
      chime_h2_setting(Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), settings.initialWindowBytes),
      chime_h2_setting(Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), settings.maxFrameBytes),
      chime_h2_setting(Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), 0),
    ]
    nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    // The connection's window: room for a few streams' whole windows at once.
    let connectionWindow = Int32(clamping: UInt64(settings.initialWindowBytes) * 4)
    nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, connectionWindow)
  }

  deinit { nghttp2_session_del(session) }

  private static func of(_ user: UnsafeMutableRawPointer?) -> HTTP2Session {
    Unmanaged<HTTP2Session>.fromOpaque(user.unsafelyUnwrapped).takeUnretainedValue()
  }

  // MARK: RFC 9113 §8, between nghttp2's callbacks and the delegate

  /// A HEADERS frame's header arrived: one on a client stream identifier skipped earlier is a
  /// connection error (§5.1.1), which nghttp2 would ignore. Its GOAWAY is queued and the frame
  /// fails the callback, which stops reading; `receive` throws it.
  private func headersBegin(on stream: Int32) -> Int32 {
    guard streamIDs.headers(on: stream) == .skipped else { return 0 }
    let reason = "HEADERS on stream \(stream), below stream \(streamIDs.highest) already opened"
    Array(reason.utf8).withUnsafeBufferPointer { debug in
      _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
                                ErrorCode.protocolError.rawValue, debug.baseAddress, debug.count)
    }
    connectionError = HTTP2Failure(code: Int32(NGHTTP2_ERR_PROTO.rawValue), detail: reason)
    return Int32(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
  }

  private func headerBlockBegins(_ frame: UnsafePointer<nghttp2_frame>) {
    let stream = chime_h2_frame_stream(frame)
    if chime_h2_is_request_headers(frame) != 0 {
      receiving = (stream, HTTP2RequestRules())
      delegate?.http2StreamOpened(stream)
    } else if !isRejected(stream), let violation = requests[stream]?.beginTrailers(endStream: chime_h2_frame_ends_stream(frame) != 0) {
      reject(stream, violation)
    }
  }

  private func header(_ frame: UnsafePointer<nghttp2_frame>, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    let stream = chime_h2_frame_stream(frame)
    if receiving?.stream == stream {
      if let violation = receiving?.rules.field(name: name, value: value) {
        receiving = nil
        return reject(stream, violation)
      }
      return delegate?.http2Header(stream, name: name, value: value) ?? ()
    }
    // Trailers are checked, not passed on: gRPC requests carry nothing in them.
    guard !isRejected(stream), let violation = requests[stream]?.field(name: name, value: value) else { return }
    reject(stream, violation)
  }

  private func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
    let stream = chime_h2_frame_stream(frame)
    let endStream = chime_h2_frame_ends_stream(frame) != 0
    if chime_h2_is_request_headers(frame) != 0 {
      guard var rules = receiving.flatMap({ $0.stream == stream ? $0.rules : nil }) else { return }
      receiving = nil
      if let violation = rules.endHeaders(endStream: endStream) { return reject(stream, violation) }
      // A body or trailers follow: checked as they come.
      if !endStream { requests[stream] = rules }
      delegate?.http2HeadersDone(stream, endStream: endStream)
      return
    }
    guard !isRejected(stream) else { return }
    if endStream, chime_h2_is_data(frame) != 0 || chime_h2_is_headers(frame) != 0 {
      // DATA with END_STREAM, or trailers after the body.
      if let violation = requests[stream]?.endBody() { return reject(stream, violation) }
      delegate?.http2BodyDone(stream)
    }
  }

  private func dataReceived(_ stream: Int32, _ bytes: UnsafeRawBufferPointer) {
    if !isRejected(stream), let violation = requests[stream]?.data(bytes.count) { reject(stream, violation) }
    guard !isRejected(stream) else {
      // Nothing reads it: the window goes back at once.
      return consumed(stream, bytes.count)
    }
    delegate?.http2Data(stream, bytes)
  }

  /// Whether `stream` was reset as malformed (the set is empty but for hostile peers: no hash
  /// then).
  private func isRejected(_ stream: Int32) -> Bool {
    !rejected.isEmpty && rejected.contains(stream)
  }

  /// Resets a malformed request with PROTOCOL_ERROR (§8.1.1); the delegate hears of it when
  /// the stream closes.
  private func reject(_ stream: Int32, _ violation: HTTP2RequestRules.Violation) {
    rejected.insert(stream)
    requests.removeValue(forKey: stream)
    malformed[stream] = "malformed request: \(violation)"
    reset(stream, .protocolError)
  }

  /// Feeds bytes read from the peer. Throws the library's message when they break HTTP/2 in
  /// a way that ends the connection (nghttp2 has then queued a GOAWAY naming the error).
  func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2Failure) {
    guard let base = bytes.baseAddress else { return }
    let rc = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    if let connectionError { throw connectionError }
    if rc < 0 { throw HTTP2Failure(code: Int32(rc)) }
  }

  /// Everything the session has to send now (frames, flow control permitting), or empty.
  func takeOutput() throws(HTTP2Failure) -> [UInt8] {
    var out: [UInt8] = []
    while true {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      if count < 0 { throw HTTP2Failure(code: Int32(count)) }
      guard count > 0, let chunk else { return out }
      out.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
  }

  /// False once both sides are done with the connection (GOAWAY sent and every stream over).
  var isAlive: Bool { nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0 }

  /// Answers `stream` with response headers. With `body`, DATA follows as
  /// `http2ResponseBytes` provides it, then trailers (`trailers(_:_:)`); without, the headers
  /// end the stream (a trailers-only response).
  func respond(_ stream: Int32, headers: HeaderBlock, body: Bool) {
    headers.withFields { fields in
      if body {
        var provider = nghttp2_data_provider()
        provider.read_callback = { _, stream, buffer, length, flags, _, user in
          guard let buffer, let flags,
                let delegate = HTTP2Session.of(user).delegate,
                let (count, done) = delegate.http2ResponseBytes(stream, into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
          else { return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
          if done {
            // The body ends here; the stream ends with the trailers the owner submits now.
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
          }
          return count
        }
        _ = nghttp2_submit_response(session, stream, fields.baseAddress, fields.count, &provider)
      } else {
        _ = nghttp2_submit_response(session, stream, fields.baseAddress, fields.count, nil)
      }
    }
  }

  /// Answers `stream` with a whole plain HTTP response: `headers`, then `body` in DATA frames
  /// as flow control allows, the last one ending the stream (no trailers).
  func respond(_ stream: Int32, headers: HeaderBlock, plainBody body: [UInt8]) {
    plainBodies[stream] = body[...]
    headers.withFields { fields in
      var provider = nghttp2_data_provider()
      provider.read_callback = { _, stream, buffer, length, flags, _, user in
        guard let buffer, let flags else { return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
        let session = HTTP2Session.of(user)
        let rest = session.plainBodies[stream] ?? []
        let count = min(length, rest.count)
        rest.withUnsafeBytes { source in
          UnsafeMutableRawBufferPointer(start: buffer, count: count).copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(count)))
        }
        if count == rest.count {
          flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
          session.plainBodies.removeValue(forKey: stream)
        } else {
          session.plainBodies[stream] = rest.dropFirst(count)
        }
        return count
      }
      _ = nghttp2_submit_response(session, stream, fields.baseAddress, fields.count, &provider)
    }
  }

  /// Ends `stream` with trailers (after its body).
  func trailers(_ stream: Int32, _ headers: HeaderBlock) {
    headers.withFields { fields in
      _ = nghttp2_submit_trailer(session, stream, fields.baseAddress, fields.count)
    }
  }

  /// `count` received body bytes of `stream` were handed on (or dropped): their room in the
  /// stream's and the connection's windows goes back to the peer.
  func consumed(_ stream: Int32, _ count: Int) {
    guard count > 0 else { return }
    if nghttp2_session_consume(session, stream, count) != 0 {
      _ = nghttp2_session_consume_connection(session, count)
    }
  }

  /// More of `stream`'s body is ready (or its end): asks for it again.
  func resume(_ stream: Int32) { _ = nghttp2_session_resume_data(session, stream) }

  func reset(_ stream: Int32, _ code: ErrorCode) {
    _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, code.rawValue)
  }

  /// The first GOAWAY of a graceful shutdown: no new streams, those open go on.
  func announceShutdown() { _ = nghttp2_submit_shutdown_notice(session) }

  /// The final GOAWAY: streams after the last one processed are refused; the connection ends
  /// once those in flight are over. `debug` (why, for the peer's log) goes in its debug data.
  func goAway(_ code: ErrorCode, debug: String = "") {
    var text = Array(debug.utf8.prefix(512))
    _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
                              code.rawValue, &text, text.count)
  }

  /// Header fields laid out once as the bytes nghttp2 reads: the answers every call sends
  /// (status 200, `grpc-status: 0`) are built once and reused.
  struct HeaderBlock {
    private var bytes: [UInt8] = []
    private var spans: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []

    init(_ fields: [(String, String)]) {
      for (name, value) in fields {
        let nameStart = bytes.count
        bytes.append(contentsOf: name.utf8)
        let valueStart = bytes.count
        bytes.append(contentsOf: value.utf8)
        spans.append((nameStart, valueStart - nameStart, valueStart, bytes.count - valueStart))
      }
    }

    /// Runs `body` with the fields as nghttp2 header fields (nghttp2 copies them during the
    /// call; it never writes through the pointers).
    func withFields(_ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> Void) {
      bytes.withUnsafeBufferPointer { raw in
        guard let start = raw.baseAddress else { return }
        let base = UnsafeMutablePointer(mutating: start)
        withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: spans.count) { fields in
          for (i, span) in spans.enumerated() {
            fields.initializeElement(at: i, to: nghttp2_nv(
              name: base + span.name, value: base + span.value, namelen: span.nameLength, valuelen: span.valueLength,
              flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
          }
          body(fields)
        }
      }
    }
  }
}

/// An nghttp2 error that ends the connection, with the library's words for it.
struct HTTP2Failure: Error, CustomStringConvertible {
  let code: Int32
  /// What the peer did, when the transport found it rather than nghttp2.
  var detail: String?
  var description: String { String(cString: nghttp2_strerror(code)) + (detail.map { ": " + $0 } ?? "") }
}
