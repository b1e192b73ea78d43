public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Pushed notifications (`Push`) and service extensions' answers (`AnswerService`).
extension WireCodec {
  /// `PushRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when the identifier holds a NUL.
  public static func encodePushRequest(_ push: PushSubmission) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("push request") { arena in
      let m = arena.message(chime__v1__push_request__init)
      if let bytes = arena.array(of: UInt8.self, count: push.payload.count) {
        bytes.update(from: push.payload, count: push.payload.count)
        m.pointee.payload = ProtobufCBinaryData(len: push.payload.count, data: bytes)
      }
      arena.assign(&m.pointee.identifier, push.identifier)
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`.
  public static func decodePushRequest(_ bytes: [UInt8]) throws(ChimeError) -> PushSubmission {
    try ProtoMessage.decode(bytes, as: "PushRequest", with: chime__v1__push_request__unpack) { m throws(ChimeError) in
      PushSubmission(payload: ProtoMessage.bytes(m.pointee.payload), identifier: try ProtoMessage.text(m.pointee.identifier, "identifier"))
    }
  }

  /// `PushResponse`.
  public static func encodePushResponse(_ result: PushResult) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__push_response__init)
      m.pointee.delivered = RequestProto.build(result.delivered, in: arena)
      m.pointee.replaced = result.replaced ? 1 : 0
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `UNKNOWN_ENUM_VALUE`.
  public static func decodePushResponse(_ bytes: [UInt8]) throws(ChimeError) -> PushResult {
    try ProtoMessage.decode(bytes, as: "PushResponse", with: chime__v1__push_response__unpack) { m throws(ChimeError) in
      PushResult(delivered: try RequestProto.delivered(m.pointee.delivered, "delivered"), replaced: m.pointee.replaced != 0)
    }
  }

  /// `AnswerServiceRequest`: content, or a failure (an empty message is sent as "failed").
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeAnswerServiceRequest(_ request: ServiceAnswerRequest) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("service extension answer") { arena in
      let m = arena.message(chime__v1__answer_service_request__init)
      arena.assign(&m.pointee.extension_identifier, request.extensionIdentifier)
      m.pointee.request_id = request.requestID
      switch request.answer {
      case .content(let content): m.pointee.content = RequestProto.build(content, in: arena)
      case .failed(let message): arena.assign(&m.pointee.error, message.isEmpty ? "failed" : message)
      case .timedOut: arena.assign(&m.pointee.error, "timed out")
      case .disconnected: arena.assign(&m.pointee.error, "disconnected")
      }
      return m
    }
  }

  /// A non-empty `error` is `.failed`; otherwise the content (unset reads as empty content).
  ///
  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`, `UNKNOWN_ENUM_VALUE`.
  public static func decodeAnswerServiceRequest(_ bytes: [UInt8]) throws(ChimeError) -> ServiceAnswerRequest {
    try ProtoMessage.decode(bytes, as: "AnswerServiceRequest", with: chime__v1__answer_service_request__unpack) { m throws(ChimeError) in
      let error = try ProtoMessage.text(m.pointee.error, "error")
      let answer: ServiceAnswer = error.isEmpty ? .content(try RequestProto.content(m.pointee.content, "content")) : .failed(error)
      return ServiceAnswerRequest(extensionIdentifier: try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier"),
                                  requestID: m.pointee.request_id, answer: answer)
    }
  }
}
