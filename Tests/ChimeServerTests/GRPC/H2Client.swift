import CNGHTTP2
import ChimeTestSupport
import Foundation

/// A blocking HTTP/2 client (an nghttp2 client session over a Unix socket) for the gRPC
/// transport's tests: sends requests with whole bodies, and reads each stream's headers, body,
/// trailers or reset. It reads the socket only when asked (`pump`, `response`).
final class H2Client {
  struct Response {
    var headers: [String: String] = [:]
    var trailers: [String: String] = [:]
    var body: [UInt8] = []
    var resetCode: UInt32?
    var ended = false

    /// The gRPC status fields: the trailers, or the headers of a trailers-only response.
    var status: [String: String] { trailers.isEmpty ? headers : trailers }
    var grpcStatus: Int32? { status["grpc-status"].flatMap { Int32($0) } }

    /// The length-prefixed messages of the body.
    var messages: [[UInt8]] {
      var out: [[UInt8]] = []
      var i = 0
      while body.count - i >= 5 {
        let length = Int(body[i + 1]) << 24 | Int(body[i + 2]) << 16 | Int(body[i + 3]) << 8 | Int(body[i + 4])
        guard body.count - i - 5 >= length else { break }
        out.append(Array(body[(i + 5)..<(i + 5 + length)]))
        i += 5 + length
      }
      return out
    }
  }

  let socket: RawSocket
  private var session: OpaquePointer?
  private var bodies: [Int32: (bytes: [UInt8], sent: Int)] = [:]
  private(set) var responses: [Int32: Response] = [:]
  private(set) var goAwayCode: UInt32?
  /// The last GOAWAY's debug data.
  private(set) var goAwayDebug = ""
  private(set) var closed = false
  /// A write failed: the peer stopped reading (it may still have sent more).
  private(set) var writeFailed = false

  /// Connects and sends the preface with `settings` (id, value). `autoWindowUpdate: false`
  /// never gives flow-control window back: a client that stops reading its streams.
  init(path: String, settings: [(Int32, UInt32)] = [], autoWindowUpdate: Bool = true) throws {
    socket = try RawSocket(path: path)
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
      guard let frame, let name, let value else { return 0 }
      let client = H2Client.of(user)
      let key = String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self)
      let text = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
      let stream = frame.pointee.hd.stream_id
      if frame.pointee.headers.cat == NGHTTP2_HCAT_HEADERS {
        client.responses[stream, default: Response()].trailers[key] = text
      } else {
        client.responses[stream, default: Response()].headers[key] = text
      }
      return 0
    }
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, user in
      guard let data else { return 0 }
      H2Client.of(user).responses[stream, default: Response()].body.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
      return 0
    }
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, code, user in
      let client = H2Client.of(user)
      client.responses[stream, default: Response()].ended = true
      if code != 0 { client.responses[stream, default: Response()].resetCode = code }
      return 0
    }
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
      guard let frame else { return 0 }
      if frame.pointee.hd.type == UInt8(NGHTTP2_GOAWAY.rawValue) {
        let client = H2Client.of(user)
        client.goAwayCode = frame.pointee.goaway.error_code
        if let data = frame.pointee.goaway.opaque_data {
          client.goAwayDebug = String(decoding: UnsafeBufferPointer(start: data, count: frame.pointee.goaway.opaque_data_len), as: UTF8.self)
        }
      }
      return 0
    }
    var options: OpaquePointer?
    nghttp2_option_new(&options)
    defer { nghttp2_option_del(options) }
    nghttp2_option_set_no_auto_window_update(options, autoWindowUpdate ? 0 : 1)
    nghttp2_session_client_new2(&session, callbacks, Unmanaged.passUnretained(self).toOpaque(), options)
    var entries = settings.map { nghttp2_settings_entry(settings_id: $0.0, value: $0.1) }
    nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    flush()
  }

  deinit { nghttp2_session_del(session) }

  private static func of(_ user: UnsafeMutableRawPointer?) -> H2Client {
    Unmanaged<H2Client>.fromOpaque(user!).takeUnretainedValue()
  }

  /// Starts a gRPC request on `path` with `messages` length-prefixed as its body (or `rawBody`
  /// as it is), ending the stream after it.
  @discardableResult
  func request(_ path: String, app: String? = "org.example.grpc", messages: [[UInt8]] = [], rawBody: [UInt8]? = nil,
               headers extra: [(String, String)] = [], contentType: String = "application/grpc") -> Int32 {
    var body: [UInt8] = []
    for message in messages {
      let n = UInt32(message.count)
      body += [0, UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + message
    }
    if let rawBody { body = rawBody }
    var headers = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                   ("content-type", contentType), ("te", "trailers")]
    if let app { headers.append(("chime-app", app)) }
    headers += extra
    var bytes: [UInt8] = []
    var spans: [(Int, Int, Int, Int)] = []
    for (name, value) in headers {
      let n = bytes.count
      bytes += Array(name.utf8)
      let v = bytes.count
      bytes += Array(value.utf8)
      spans.append((n, v - n, v, bytes.count - v))
    }
    var provider = nghttp2_data_provider()
    provider.read_callback = { _, stream, buffer, length, flags, _, user in
      let client = H2Client.of(user)
      guard let body = client.bodies[stream], let buffer else {
        flags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        return 0
      }
      let count = min(length, body.bytes.count - body.sent)
      body.bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + body.sent, byteCount: count) }
      client.bodies[stream]!.sent += count
      if body.sent + count == body.bytes.count { flags!.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
      return count
    }
    let stream = bytes.withUnsafeMutableBufferPointer { raw in
      var fields = spans.map {
        nghttp2_nv(name: raw.baseAddress! + $0.0, value: raw.baseAddress! + $0.2, namelen: $0.1, valuelen: $0.3,
                   flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
      }
      return nghttp2_submit_request(session, nil, &fields, fields.count, &provider, nil)
    }
    bodies[stream] = (body, 0)
    responses[stream] = Response()
    flush()
    return stream
  }

  /// Resets `stream` (a client cancelling its call).
  func cancel(_ stream: Int32) {
    nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, 0x8)
    flush()
  }

  /// The peer's value for one setting.
  func remoteSetting(_ id: nghttp2_settings_id) -> UInt32 {
    nghttp2_session_get_remote_settings(session, id)
  }

  func flush() {
    while true {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      guard count > 0, let chunk else { return }
      // A write that fails (the peer closed after answering) does not end the reading: what
      // the peer sent before closing may still wait in the socket, unread, when nghttp2 has
      // an acknowledgement to send after the first of its frames.
      if !writeFailed, !socket.write(Array(UnsafeBufferPointer(start: chunk, count: count))) { writeFailed = true }
    }
  }

  /// Reads what arrives within `timeout` seconds and feeds it to the session.
  func pump(timeout: Double = 0.2) {
    let (bytes, eof) = socket.read(timeout: timeout)
    if !bytes.isEmpty {
      let rc = bytes.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
      if rc < 0 { closed = true }
    }
    if eof { closed = true }
    flush()
  }

  /// Pumps until `condition` holds or `timeout` seconds pass (bounded); returns the condition.
  @discardableResult
  func pump(until condition: () -> Bool, timeout: Double = 10) -> Bool {
    let start = Date()
    while !condition() && !closed && Date().timeIntervalSince(start) < timeout { pump(timeout: 0.05) }
    return condition()
  }

  /// Waits (bounded) for `stream` to end and returns what it got.
  func response(_ stream: Int32, timeout: Double = 10) -> Response {
    pump(until: { responses[stream]?.ended == true }, timeout: timeout)
    return responses[stream] ?? Response()
  }
}
