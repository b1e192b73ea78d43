internal import CChimeProto
import ChimeRecords
import ChimeCore

/// `Frame` <-> `chime.v1.Frame`.
enum FrameProto {
  /// The packed frame with its 4-byte big-endian length prefix.
  ///
  /// The two frames every call sends — a call, and a reply without a status — are written here
  /// field by field, the bytes protobuf-c writes (`FrameProtoTests` compares them): building
  /// them through protobuf-c (an arena, two messages, string copies, a size pass and a pack
  /// pass) was about a tenth of ChimeClient's instructions per call (callgrind), and as much
  /// again in chimed per reply. Other frames, and a header string holding a NUL (protobuf-c
  /// cuts it there), go through protobuf-c.
  static func encode(_ frame: Frame) -> [UInt8] {
    switch frame {
    case .call(let id, let header, let payload) where !header.method.containsNUL && !header.appID.containsNUL:
      return encodeCall(id: id, header, payload: payload)
    case .reply(let id, let payload, let endOfStream, nil):
      return encodeReply(id: id, payload: payload, endOfStream: endOfStream)
    default:
      return encodeWithProtobufC(frame)
    }
  }

  static func encodeWithProtobufC(_ frame: Frame) -> [UInt8] {
    let arena = CArena()
    defer { arena.freeAll() }
    let f = arena.message(chime__v1__frame__init)
    f.pointee.call_id = frame.callID
    switch frame {
    case .cancel:
      f.pointee.kind_case = CHIME__V1__FRAME__KIND_CANCEL
      f.pointee.cancel = arena.message(chime__v1__cancel__init)
      return ProtoMessage.pack(f, lengthPrefix: true)

    case .call(_, let header, let payload):
      let call = arena.message(chime__v1__call__init)
      arena.assign(&call.pointee.method, header.method)
      arena.assign(&call.pointee.app_id, header.appID)
      call.pointee.deadline_unix_ms = header.deadline?.unixMillis ?? 0
      f.pointee.kind_case = CHIME__V1__FRAME__KIND_CALL
      f.pointee.call = call
      // The payload is packed straight from the array; no copy.
      return payload.withUnsafeBufferPointer { body in
        call.pointee.payload = binaryData(body)
        return ProtoMessage.pack(f, lengthPrefix: true)
      }

    case .reply(_, let payload, let endOfStream, let status):
      let reply = arena.message(chime__v1__reply__init)
      reply.pointee.end_of_stream = endOfStream ? 1 : 0
      if let status {
        let s = arena.message(chime__v1__status__init)
        s.pointee.code = status.code.rawValue
        arena.assign(&s.pointee.message, status.message)
        arena.assign(&s.pointee.reason, status.reason)
        arena.assign(&s.pointee.field, status.field)
        reply.pointee.status = s
      }
      f.pointee.kind_case = CHIME__V1__FRAME__KIND_REPLY
      f.pointee.reply = reply
      return payload.withUnsafeBufferPointer { body in
        reply.pointee.payload = binaryData(body)
        return ProtoMessage.pack(f, lengthPrefix: true)
      }
    }
  }

  // Wire types (protobuf encoding): 0 varint, 2 length-delimited.
  private static func encodeCall(id: UInt64, _ header: CallHeader, payload: [UInt8]) -> [UInt8] {
    let deadline = header.deadline?.unixMillis ?? 0
    let method = header.method.utf8.count, app = header.appID.utf8.count
    // Call: method = 1, app_id = 2, deadline_unix_ms = 3, payload = 4; each left out at its default.
    var call = 0
    if method > 0 { call += 1 + varintSize(UInt64(method)) + method }
    if app > 0 { call += 1 + varintSize(UInt64(app)) + app }
    if deadline != 0 { call += 1 + varintSize(UInt64(bitPattern: deadline)) }
    if !payload.isEmpty { call += 1 + varintSize(UInt64(payload.count)) + payload.count }
    // Frame: call_id = 1, call = 2 (present even when empty: it is the oneof's case).
    var body = 1 + varintSize(UInt64(call)) + call
    if id != 0 { body += 1 + varintSize(id) }
    var out = lengthPrefixed(body)
    if id != 0 { out.append(1 << 3 | 0); appendVarint(id, to: &out) }
    out.append(2 << 3 | 2); appendVarint(UInt64(call), to: &out)
    if method > 0 { out.append(1 << 3 | 2); appendVarint(UInt64(method), to: &out); out += header.method.utf8 }
    if app > 0 { out.append(2 << 3 | 2); appendVarint(UInt64(app), to: &out); out += header.appID.utf8 }
    if deadline != 0 { out.append(3 << 3 | 0); appendVarint(UInt64(bitPattern: deadline), to: &out) }
    if !payload.isEmpty { out.append(4 << 3 | 2); appendVarint(UInt64(payload.count), to: &out); out += payload }
    return out
  }

  private static func encodeReply(id: UInt64, payload: [UInt8], endOfStream: Bool) -> [UInt8] {
    // Reply: payload = 1, end_of_stream = 2; Frame: call_id = 1, reply = 4.
    var reply = 0
    if !payload.isEmpty { reply += 1 + varintSize(UInt64(payload.count)) + payload.count }
    if endOfStream { reply += 2 }
    var body = 1 + varintSize(UInt64(reply)) + reply
    if id != 0 { body += 1 + varintSize(id) }
    var out = lengthPrefixed(body)
    if id != 0 { out.append(1 << 3 | 0); appendVarint(id, to: &out) }
    out.append(4 << 3 | 2); appendVarint(UInt64(reply), to: &out)
    if !payload.isEmpty { out.append(1 << 3 | 2); appendVarint(UInt64(payload.count), to: &out); out += payload }
    if endOfStream { out.append(2 << 3 | 0); out.append(1) }
    return out
  }

  /// An array holding the 4-byte big-endian `length`, with room for the body after it.
  private static func lengthPrefixed(_ length: Int) -> [UInt8] {
    precondition(length <= Int(UInt32.max), "frame of \(length) bytes does not fit a 32-bit length")
    var out: [UInt8] = []
    out.reserveCapacity(4 + length)
    out.append(UInt8(truncatingIfNeeded: length >> 24))
    out.append(UInt8(truncatingIfNeeded: length >> 16))
    out.append(UInt8(truncatingIfNeeded: length >> 8))
    out.append(UInt8(truncatingIfNeeded: length))
    return out
  }

  private static func varintSize(_ value: UInt64) -> Int {
    var v = value, n = 1
    while v >= 0x80 { v >>= 7; n += 1 }
    return n
  }

  private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    RecordCodec.appendVarint(value, to: &out)
  }

  /// One frame body (without its length prefix).
  static func decode(_ body: UnsafeRawBufferPointer) throws(FramingError) -> Frame {
    if let frame = readCommon(body) { return frame }
    return try decodeWithProtobufC(body)
  }

  static func decodeWithProtobufC(_ body: UnsafeRawBufferPointer) throws(FramingError) -> Frame {
    let frame = try ProtoMessage.unpacking(body, with: chime__v1__frame__unpack) { f throws(FramingError) -> Frame in
      // A NUL would cut a method or app id short ("org.a\0x" read as "org.a"): refuse it.
      if let field = ProtoStrings.fieldWithNUL(in: body, descriptor: f.pointee.base.descriptor) {
        throw .malformed("frame field \(field) contains a NUL character")
      }
      let id = f.pointee.call_id
      switch f.pointee.kind_case {
      case CHIME__V1__FRAME__KIND_CALL:
        guard let c = f.pointee.call else { throw .malformed("call frame without its call") }
        let deadline = c.pointee.deadline_unix_ms
        let header = CallHeader(
          method: try text(c.pointee.method, "call.method"),
          appID: try text(c.pointee.app_id, "call.app_id"),
          deadline: deadline == 0 ? nil : Instant(unixMillis: deadline)
        )
        return .call(id: id, header, payload: ProtoMessage.bytes(c.pointee.payload))

      case CHIME__V1__FRAME__KIND_CANCEL:
        return .cancel(id: id)

      case CHIME__V1__FRAME__KIND_REPLY:
        guard let r = f.pointee.reply else { throw .malformed("reply frame without its reply") }
        var status: ChimeError?
        if let s = r.pointee.status, s.pointee.code != 0 {
          status = ChimeError(
            StatusCode(rawValue: s.pointee.code),
            reason: try text(s.pointee.reason, "reply.status.reason"),
            try text(s.pointee.message, "reply.status.message"),
            field: try text(s.pointee.field, "reply.status.field")
          )
        }
        return .reply(id: id, payload: ProtoMessage.bytes(r.pointee.payload), endOfStream: r.pointee.end_of_stream != 0, status: status)

      default:
        throw .malformed("frame has no call, cancel or reply")
      }
    }
    guard let frame else { throw .malformed("bytes are not a chime.v1.Frame") }
    return frame
  }

  private static func text(_ p: UnsafePointer<CChar>?, _ field: String) throws(FramingError) -> String {
    do {
      return try ProtoMessage.text(p, field)
    } catch {
      throw .malformed("frame field \(field) is not valid UTF-8")
    }
  }

  private static func binaryData(_ body: UnsafeBufferPointer<UInt8>) -> ProtobufCBinaryData {
    ProtobufCBinaryData(len: body.count, data: UnsafeMutablePointer(mutating: body.baseAddress))
  }
}
