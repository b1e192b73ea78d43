import CNGHTTP2
import ChimeCore
import ChimeSystem
import ChimeWire
import Glibc

/// `RawAddLoad` over gRPC: N connections on chimed's socket, each an nghttp2 client session
/// (HTTP/2 with prior knowledge, as gRPC clients speak on Unix sockets) sending one durable Add
/// and waiting for its trailers before the next, all from one thread polling every socket.
enum GRPCAddLoad {
  static func run(socket path: String, clients: Int, total: Int, idPrefix: String) throws -> AddLoad {
    let perClient = total / clients
    let connections = try (0..<clients).map { _ in try GRPCBenchConnection(path: path) }
    var sent = Array(repeating: 0, count: clients)
    var sentAt = Array(repeating: ContinuousClock.now, count: clients)
    var latencies: [Double] = []
    latencies.reserveCapacity(perClient * clients)
    var done = 0

    func send(_ c: Int) throws {
      let i = sent[c]
      let payload = try CallTable.add.encodeRequest(AddLoad.request("\(idPrefix)-\(c)-\(i)", i))
      sentAt[c] = ContinuousClock.now
      sent[c] += 1
      try connections[c].call(CallTable.add.method.rawValue, app: AddLoad.app, payload: payload)
    }

    let start = ContinuousClock.now
    let deadline = start + .seconds(120)
    for c in 0..<clients where perClient > 0 { try send(c) }
    var pollSet = connections.map { pollfd(fd: $0.fd.rawValue, events: Int16(POLLIN), revents: 0) }
    while done < clients * perClient {
      guard ContinuousClock.now < deadline else { throw BenchError("gRPC add load did not finish within 120 s") }
      let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw BenchError("poll: \(String(cString: strerror(errno)))") }
      for c in 0..<clients where pollSet[c].revents != 0 {
        pollSet[c].revents = 0
        guard let status = try connections[c].readReply() else { continue }
        guard status == "0" else { throw BenchError("gRPC add failed: grpc-status \(status)") }
        latencies.append((ContinuousClock.now - sentAt[c]).micros)
        done += 1
        if sent[c] < perClient { try send(c) }
      }
    }
    return AddLoad(total: done, seconds: (ContinuousClock.now - start).seconds, latenciesMicros: latencies)
  }

  /// Opens `count` gRPC connections that exchange SETTINGS with chimed and then stay idle; they
  /// close when the returned array goes.
  static func idle(socket path: String, count: Int) throws -> [GRPCBenchConnection] {
    let connections = try (0..<count).map { _ in try GRPCBenchConnection(path: path) }
    for connection in connections { try connection.awaitSettings() }
    return connections
  }
}

/// One HTTP/2 client connection with one call in flight at a time.
final class GRPCBenchConnection {
  let fd: FileDescriptor
  private var session: OpaquePointer?
  private var body: [UInt8] = []
  private var bodySent = 0
  private var status: String?
  private var callEnded = false
  private var settingsSeen = false
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

  init(path: String) throws {
    do throws(ChimeError) {
      fd = try UnixSocket.connect(path: path)
    } catch {
      throw BenchError("connect: \(error.message)")
    }
    var callbacks: OpaquePointer?
    nghttp2_session_callbacks_new(&callbacks)
    defer { nghttp2_session_callbacks_del(callbacks) }
    nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, _, name, nameLength, value, valueLength, _, user in
      guard let name, let value, nameLength == 11,
            String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self) == "grpc-status"
      else { return 0 }
      GRPCBenchConnection.of(user).status = String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
      return 0
    }
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, _, _, user in
      GRPCBenchConnection.of(user).callEnded = true
      return 0
    }
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
      if let frame, frame.pointee.hd.type == UInt8(NGHTTP2_SETTINGS.rawValue) { GRPCBenchConnection.of(user).settingsSeen = true }
      return 0
    }
    nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
    var window = nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20)
    nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &window, 1)
    try flush()
  }

  deinit {
    nghttp2_session_del(session)
    fd.close()
  }

  private static func of(_ user: UnsafeMutableRawPointer?) -> GRPCBenchConnection {
    Unmanaged<GRPCBenchConnection>.fromOpaque(user!).takeUnretainedValue()
  }

  /// Starts a unary call with `payload` as its one message.
  func call(_ path: String, app: String, payload: [UInt8]) throws {
    let n = UInt32(payload.count)
    body = [0, UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + payload
    bodySent = 0
    status = nil
    callEnded = false
    let headers = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                   ("content-type", "application/grpc"), ("te", "trailers"), ("chime-app", app)]
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
    provider.read_callback = { _, _, buffer, length, flags, _, user in
      let connection = GRPCBenchConnection.of(user)
      let count = min(length, connection.body.count - connection.bodySent)
      connection.body.withUnsafeBytes {
        UnsafeMutableRawPointer(buffer!).copyMemory(from: $0.baseAddress! + connection.bodySent, byteCount: count)
      }
      connection.bodySent += count
      if connection.bodySent == connection.body.count { flags!.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
      return count
    }
    let stream = bytes.withUnsafeMutableBufferPointer { raw in
      var fields = spans.map {
        nghttp2_nv(name: raw.baseAddress! + $0.0, value: raw.baseAddress! + $0.2, namelen: $0.1, valuelen: $0.3,
                   flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
      }
      return nghttp2_submit_request(session, nil, &fields, fields.count, &provider, nil)
    }
    guard stream > 0 else { throw BenchError("nghttp2_submit_request: \(String(cString: nghttp2_strerror(stream)))") }
    try flush()
  }

  /// Reads what the socket has; the call's grpc-status once it ended, else nil.
  func readReply() throws -> String? {
    try readOnce()
    guard callEnded else { return nil }
    return status ?? "no grpc-status"
  }

  /// Blocks until chimed's SETTINGS arrived.
  func awaitSettings() throws {
    while !settingsSeen { try readOnce() }
  }

  private func readOnce() throws {
    let n = buffer.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw BenchError("daemon closed the gRPC connection") }
    let rc = buffer.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, n) }
    guard rc >= 0 else { throw BenchError("HTTP/2: \(String(cString: nghttp2_strerror(Int32(rc))))") }
    try flush()
  }

  private func flush() throws {
    var out: [UInt8] = []
    while true {
      var chunk: UnsafePointer<UInt8>?
      let count = nghttp2_session_mem_send(session, &chunk)
      guard count > 0, let chunk else { break }
      out.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
    }
    guard !out.isEmpty else { return }
    do throws(Errno) {
      try UnixSocket.sendAll(fd, out)
    } catch {
      throw BenchError("send: \(error)")
    }
  }
}
