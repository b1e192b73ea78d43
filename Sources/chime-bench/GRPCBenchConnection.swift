import CNGHTTP2
import ChimeCore
import ChimeSystem
import Glibc

/// One HTTP/2 client connection to chimed's gRPC transport with one unary call in flight at a
/// time, framed here as lean as `RawAddLoad`'s native frames: the load generator shares this
/// machine's cores with chimed, and a full nghttp2 client session per connection cost it about
/// 15 µs more CPU per add than the native loader, which counted against gRPC (bench/NOTES.md).
///
/// The request's header block is HPACK-encoded with indexing, as gRPC clients do (after the first
/// call chimed decodes table references, not the strings), by the connection's own encoder
/// until two blocks in a row come out the same: from then on those bytes serve every call (the
/// encoder's table no longer changes). A call is one write of its HEADERS and DATA frames. Replies are
/// framed here; their header blocks, all of them in order (the decoder's table follows the
/// server's), go through nghttp2's HPACK decoder for grpc-status. Flow control: this side's
/// receive windows are opened to the maximum at the start; its sends keep to the connection
/// window chimed gives back.
final class GRPCBenchConnection {
  let fd: FileDescriptor
  private let inflater: OpaquePointer
  private let deflater: OpaquePointer
  /// The path and app of the last call, the header block last encoded for them, and that
  /// block once it came out the same twice in a row.
  private var requestKey = ""
  private var lastBlock: [UInt8] = []
  private var stableBlock: [UInt8]?
  private var nextStream: UInt32 = 1
  private var stream: UInt32 = 0
  private var status: String?
  private var callEnded = false
  private var settingsSeen = false
  /// Bytes received and not yet framed.
  private var input: [UInt8] = []
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  /// The header block being received (HEADERS, then CONTINUATION frames), and whether its
  /// HEADERS frame ended its stream.
  private var block: [UInt8] = []
  private var blockStream: UInt32 = 0
  private var blockEndsStream = false
  /// What this side may still send as DATA on the connection.
  private var sendWindow = 65_535
  /// Reply DATA received since this side last gave the connection's window back.
  private var receivedSinceUpdate = 0
  /// The largest frame chimed takes before its SETTINGS say otherwise (RFC 9113 §6.5.2).
  private static let maxFrameBytes = 16_384

  init(path: String) throws {
    do throws(ChimeError) {
      fd = try UnixSocket.connect(path: path)
    } catch {
      throw BenchError("connect: \(error.message)")
    }
    var made: OpaquePointer?, madeDeflater: OpaquePointer?
    guard nghttp2_hd_inflate_new(&made) == 0, let made else {
      fd.close()
      throw BenchError("nghttp2_hd_inflate_new failed")
    }
    guard nghttp2_hd_deflate_new(&madeDeflater, 4096) == 0, let madeDeflater else {
      nghttp2_hd_inflate_del(made)
      fd.close()
      throw BenchError("nghttp2_hd_deflate_new failed")
    }
    inflater = made
    deflater = madeDeflater
    // The preface, SETTINGS (no push; each stream's window at the maximum) and the
    // connection's window opened to the maximum: chimed never waits for this side to read.
    var start = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    Self.appendFrame(to: &start, type: 0x4, flags: 0, stream: 0, payload: Self.setting(0x2, 0) + Self.setting(0x4, 0x7fff_ffff))
    Self.appendFrame(to: &start, type: 0x8, flags: 0, stream: 0, payload: Self.bigEndian(0x7fff_ffff - 65_535))
    try send(start)
  }

  deinit {
    nghttp2_hd_inflate_del(inflater)
    nghttp2_hd_deflate_del(deflater)
    fd.close()
  }

  /// Starts a unary call of `path` with `payload` as its one message.
  func call(_ path: String, app: String, payload: [UInt8]) throws {
    let requestBlock = try headerBlock(path: path, app: app)
    let message = [0] + Self.bigEndian(UInt32(payload.count)) + payload
    // One DATA frame per call: a message past the frame size would need splitting.
    guard message.count <= Self.maxFrameBytes else { throw BenchError("a gRPC request of \(message.count) bytes is more than one DATA frame") }
    while sendWindow < message.count { try readOnce() }
    sendWindow -= message.count
    stream = nextStream
    nextStream += 2
    status = nil
    callEnded = false
    var frames: [UInt8] = []
    frames.reserveCapacity(18 + requestBlock.count + message.count)
    Self.appendFrame(to: &frames, type: 0x1, flags: 0x4, stream: stream, payload: requestBlock)
    Self.appendFrame(to: &frames, type: 0x0, flags: 0x1, stream: stream, payload: message)
    try send(frames)
  }

  /// Reads what the socket has; the call's grpc-status once it ended (once: a later frame on
  /// the connection does not end it again), else nil.
  func readReply() throws -> String? {
    try readOnce()
    guard callEnded else { return nil }
    callEnded = false
    return status ?? "no grpc-status"
  }

  /// Blocks until chimed's SETTINGS arrived.
  func awaitSettings() throws {
    while !settingsSeen { try readOnce() }
  }

  private func readOnce() throws {
    let received = buffer.withUnsafeMutableBytes { bytes in Result { () throws(Errno) -> Int in try UnixSocket.receive(fd, into: bytes) } }
    guard case .success(let n) = received else { throw BenchError("receive: \(received)") }
    guard n > 0 else { throw BenchError("daemon closed the gRPC connection") }
    input.append(contentsOf: buffer[0..<n])
    var at = 0
    while input.count - at >= 9 {
      let length = Int(input[at]) << 16 | Int(input[at + 1]) << 8 | Int(input[at + 2])
      guard input.count - at - 9 >= length else { break }
      let type = input[at + 3], flags = input[at + 4]
      let streamID = (UInt32(input[at + 5]) << 24 | UInt32(input[at + 6]) << 16 | UInt32(input[at + 7]) << 8 | UInt32(input[at + 8])) & 0x7fff_ffff
      try frame(type: type, flags: flags, stream: streamID, payload: input[(at + 9)..<(at + 9 + length)])
      at += 9 + length
    }
    input.removeFirst(at)
  }

  private func frame(type: UInt8, flags: UInt8, stream streamID: UInt32, payload: ArraySlice<UInt8>) throws {
    switch type {
    case 0x1, 0x9:  // HEADERS, CONTINUATION
      var fragment = payload
      if type == 0x1 {
        if flags & 0x8 != 0, let pad = fragment.first { fragment = fragment.dropFirst().dropLast(Int(pad)) }  // PADDED
        if flags & 0x20 != 0 { fragment = fragment.dropFirst(5) }  // PRIORITY
        block.removeAll(keepingCapacity: true)
        blockStream = streamID
        blockEndsStream = flags & 0x1 != 0
      }
      block.append(contentsOf: fragment)
      guard flags & 0x4 != 0 else { return }  // END_HEADERS
      let found = try decodeBlock()
      if blockStream == stream {
        if let found { status = found }
        if blockEndsStream { callEnded = true }
      }
    case 0x0:  // DATA: its message is not read; an end of stream here has no trailers
      if streamID == stream && flags & 0x1 != 0 { callEnded = true }
      // The connection's window was opened to the maximum at the start; it goes back once a
      // gibibyte of replies has used it.
      receivedSinceUpdate += payload.count
      if receivedSinceUpdate >= 1 << 30 {
        var update: [UInt8] = []
        Self.appendFrame(to: &update, type: 0x8, flags: 0, stream: 0, payload: Self.bigEndian(UInt32(receivedSinceUpdate)))
        receivedSinceUpdate = 0
        try send(update)
      }
    case 0x3:  // RST_STREAM
      throw BenchError("chimed reset stream \(streamID) (HTTP/2 error \(Self.uint32(payload)))")
    case 0x4:  // SETTINGS
      guard flags & 0x1 == 0 else { return }
      settingsSeen = true
      var ack: [UInt8] = []
      Self.appendFrame(to: &ack, type: 0x4, flags: 0x1, stream: 0, payload: [])
      try send(ack)
    case 0x6:  // PING
      guard flags & 0x1 == 0 else { return }
      var ack: [UInt8] = []
      Self.appendFrame(to: &ack, type: 0x6, flags: 0x1, stream: 0, payload: Array(payload))
      try send(ack)
    case 0x7:  // GOAWAY
      throw BenchError("chimed sent GOAWAY (HTTP/2 error \(Self.uint32(payload.dropFirst(4))))")
    case 0x8:  // WINDOW_UPDATE
      if streamID == 0 { sendWindow += Int(Self.uint32(payload) & 0x7fff_ffff) }
    default:
      break
    }
  }

  /// Decodes the header block received (keeping the decoder's table in step); its
  /// grpc-status, if it has one.
  private func decodeBlock() throws -> String? {
    var found: String?
    try block.withUnsafeBufferPointer { bytes in
      var at = 0
      while true {
        var field = nghttp2_nv()
        var flags: Int32 = 0
        let used = nghttp2_hd_inflate_hd2(inflater, &field, &flags, bytes.baseAddress! + at, bytes.count - at, 1)
        guard used >= 0 else { throw BenchError("HPACK: \(String(cString: nghttp2_strerror(Int32(used))))") }
        at += used
        if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0, field.namelen == 11,
           String(decoding: UnsafeBufferPointer(start: field.name, count: 11), as: UTF8.self) == "grpc-status" {
          found = String(decoding: UnsafeBufferPointer(start: field.value, count: field.valuelen), as: UTF8.self)
        }
        if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
          nghttp2_hd_inflate_end_headers(inflater)
          return
        }
        if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) == 0 && at == bytes.count {
          throw BenchError("HPACK: the header block ended inside a field")
        }
      }
    }
    return found
  }

  private func send(_ bytes: [UInt8]) throws {
    do throws(Errno) {
      try UnixSocket.sendAll(fd, bytes)
    } catch {
      throw BenchError("send: \(error)")
    }
  }

  /// The request's header block for a call of `path` as `app`.
  private func headerBlock(path: String, app: String) throws -> [UInt8] {
    let key = path + "\n" + app
    if key == requestKey, let stableBlock { return stableBlock }
    if key != requestKey {
      requestKey = key
      lastBlock = []
      stableBlock = nil
    }
    let block = try encodeHeaders([(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                                   ("content-type", "application/grpc"), ("te", "trailers"), ("chime-app", app)])
    if block == lastBlock { stableBlock = block }
    lastBlock = block
    return block
  }

  /// `fields` HPACK-encoded by the connection's encoder, which indexes them as it sees fit.
  private func encodeHeaders(_ fields: [(String, String)]) throws -> [UInt8] {
    var text: [UInt8] = []
    var spans: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []
    for (name, value) in fields {
      let n = text.count
      text += Array(name.utf8)
      let v = text.count
      text += Array(value.utf8)
      spans.append((n, v - n, v, text.count - v))
    }
    return try text.withUnsafeMutableBufferPointer { raw in
      var nva = spans.map {
        nghttp2_nv(name: raw.baseAddress! + $0.name, value: raw.baseAddress! + $0.value, namelen: $0.nameLength, valuelen: $0.valueLength,
                   flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
      }
      var out = [UInt8](repeating: 0, count: nghttp2_hd_deflate_bound(deflater, &nva, nva.count))
      let count = out.withUnsafeMutableBufferPointer { nghttp2_hd_deflate_hd(deflater, $0.baseAddress, $0.count, &nva, nva.count) }
      guard count >= 0 else { throw BenchError("HPACK encode: \(String(cString: nghttp2_strerror(Int32(count))))") }
      return Array(out[0..<count])
    }
  }

  private static func appendFrame(to bytes: inout [UInt8], type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) {
    let n = payload.count
    bytes += [UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), type, flags]
    bytes += bigEndian(stream)
    bytes += payload
  }

  private static func setting(_ id: UInt16, _ value: UInt32) -> [UInt8] {
    [UInt8(id >> 8), UInt8(id & 0xff)] + bigEndian(value)
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
  }

  private static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
  }
}
