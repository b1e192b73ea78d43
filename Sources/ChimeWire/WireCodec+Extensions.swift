public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Content extensions: `RegisterExtension` and the `ExtensionEvent`s its stream carries.
extension WireCodec {
  /// `RegisterExtensionRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeRegisterExtensionRequest(_ registration: ExtensionRegistration) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("extension registration") { arena in
      let m = arena.message(chime__v1__register_extension_request__init)
      arena.assign(&m.pointee.extension_identifier, registration.extensionIdentifier)
      arena.assign(&m.pointee.category_identifiers, count: &m.pointee.n_category_identifiers, registration.categoryIdentifiers)
      m.pointee.attributes = ExtensionProto.build(registration.attributes, in: arena)
      m.pointee.service = registration.isService ? 1 : 0
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`, `UNKNOWN_ENUM_VALUE`
  ///   (field `attributes.media_button.type`).
  public static func decodeRegisterExtensionRequest(_ bytes: [UInt8]) throws(ChimeError) -> ExtensionRegistration {
    try ProtoMessage.decode(bytes, as: "RegisterExtensionRequest", with: chime__v1__register_extension_request__unpack) { m throws(ChimeError) in
      ExtensionRegistration(
        extensionIdentifier: try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier"),
        categoryIdentifiers: try ProtoMessage.texts(m.pointee.category_identifiers, count: m.pointee.n_category_identifiers, "category_identifiers"),
        attributes: try ExtensionProto.attributes(m.pointee.attributes, "attributes"),
        isService: m.pointee.service != 0)
    }
  }

  /// `ExtensionEvent`.
  public static func encodeExtensionEvent(_ event: ExtensionEvent) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__extension_event__init)
      m.pointee.registered = event.registered ? 1 : 0
      m.pointee.response_id = event.responseID
      if let delivered = event.delivered { m.pointee.delivered = RequestProto.build(delivered, in: arena) }
      if let response = event.response { m.pointee.response = CategoryProto.build(response, in: arena) }
      if let media = event.media {
        let press = arena.message(chime__v1__media_press__init)
        arena.assign(&press.pointee.notification_identifier, media.notificationIdentifier)
        press.pointee.command = ExtensionProto.command(media.command)
        m.pointee.media = press
      }
      if let service = event.serviceRequest {
        let r = arena.message(chime__v1__service_request__init)
        r.pointee.id = service.id
        r.pointee.request = RequestProto.build(service.request, in: arena)
        r.pointee.deadline_unix_ms = service.deadline.unixMillis
        m.pointee.service_request = r
      }
      m.pointee.service_time_will_expire = event.serviceTimeWillExpire
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `INVALID_MEDIA_COMMAND`, `UNKNOWN_ENUM_VALUE`.
  public static func decodeExtensionEvent(_ bytes: [UInt8]) throws(ChimeError) -> ExtensionEvent {
    try ProtoMessage.decode(bytes, as: "ExtensionEvent", with: chime__v1__extension_event__unpack) { m throws(ChimeError) in
      let e = m.pointee
      return ExtensionEvent(
        registered: e.registered != 0,
        delivered: try e.delivered.map { (d) throws(ChimeError) in try RequestProto.delivered(d, "delivered") },
        response: try e.response.map { (r) throws(ChimeError) in try CategoryProto.response(r.pointee, "response") },
        responseID: e.response_id,
        media: try e.media.map { (p) throws(ChimeError) in
          MediaPress(notificationIdentifier: try ProtoMessage.text(p.pointee.notification_identifier, "media.notification_identifier"),
                     command: try ExtensionProto.command(p.pointee.command, "media.command"))
        },
        serviceRequest: try e.service_request.map { (r) throws(ChimeError) in
          ServiceRequest(id: r.pointee.id, request: try RequestProto.request(r.pointee.request, "service_request.request"),
                         deadline: Instant(unixMillis: r.pointee.deadline_unix_ms))
        },
        serviceTimeWillExpire: e.service_time_will_expire)
    }
  }

  /// What `AnswerResponseRequest` carries.
  public struct ExtensionAnswerRequest: Hashable, Sendable {
    public var extensionIdentifier: String
    public var responseID: UInt64
    /// `.noExtension` is never sent; UNSPECIFIED reads as `.dismissAndForward`.
    public var answer: ExtensionAnswer

    public init(extensionIdentifier: String, responseID: UInt64, answer: ExtensionAnswer) {
      self.extensionIdentifier = extensionIdentifier
      self.responseID = responseID
      self.answer = answer
    }
  }

  /// `AnswerResponseRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeAnswerResponseRequest(_ request: ExtensionAnswerRequest) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("extension answer") { arena in
      let m = arena.message(chime__v1__answer_response_request__init)
      arena.assign(&m.pointee.extension_identifier, request.extensionIdentifier)
      m.pointee.response_id = request.responseID
      m.pointee.option = switch request.answer {
      case .doNotDismiss: CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DO_NOT_DISMISS
      case .dismiss: CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DISMISS
      case .dismissAndForward, .noExtension: CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DISMISS_AND_FORWARD
      }
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`, `UNKNOWN_ENUM_VALUE`
  ///   (field `option`).
  public static func decodeAnswerResponseRequest(_ bytes: [UInt8]) throws(ChimeError) -> ExtensionAnswerRequest {
    try ProtoMessage.decode(bytes, as: "AnswerResponseRequest", with: chime__v1__answer_response_request__unpack) { m throws(ChimeError) in
      let answer: ExtensionAnswer
      switch m.pointee.option {
      case CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_UNSPECIFIED,
           CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DISMISS_AND_FORWARD: answer = .dismissAndForward
      case CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DO_NOT_DISMISS: answer = .doNotDismiss
      case CHIME__V1__EXTENSION_RESPONSE_OPTION__EXTENSION_RESPONSE_OPTION_DISMISS: answer = .dismiss
      default: throw WireErrors.unknownEnum(m.pointee.option.rawValue, field: "option")
      }
      return ExtensionAnswerRequest(extensionIdentifier: try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier"),
                                    responseID: m.pointee.response_id, answer: answer)
    }
  }
}
