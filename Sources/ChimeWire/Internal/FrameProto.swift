internal import CChimeProto
import ChimeCore

/// `Frame` <-> `chime.v1.Frame`.
enum FrameProto {
  /// The packed frame with its 4-byte big-endian length prefix.
  static func encode(_ frame: Frame) -> [UInt8] {
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

  /// One frame body (without its length prefix).
  static func decode(_ body: UnsafeRawBufferPointer) throws(FramingError) -> Frame {
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
