public import ChimeCore
internal import CChimeProto

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
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`.
  public static func decodeRegisterExtensionRequest(_ bytes: [UInt8]) throws(ChimeError) -> ExtensionRegistration {
    try ProtoMessage.decode(bytes, as: "RegisterExtensionRequest", with: chime__v1__register_extension_request__unpack) { m throws(ChimeError) in
      ExtensionRegistration(
        extensionIdentifier: try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier"),
        categoryIdentifiers: try ProtoMessage.texts(m.pointee.category_identifiers, count: m.pointee.n_category_identifiers, "category_identifiers"))
    }
  }

  /// `ExtensionEvent`.
  public static func encodeExtensionEvent(_ event: ExtensionEvent) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__extension_event__init)
      m.pointee.registered = event.registered ? 1 : 0
      if let delivered = event.delivered { m.pointee.delivered = RequestProto.build(delivered, in: arena) }
      if let response = event.response { m.pointee.response = CategoryProto.build(response, in: arena) }
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`.
  public static func decodeExtensionEvent(_ bytes: [UInt8]) throws(ChimeError) -> ExtensionEvent {
    try ProtoMessage.decode(bytes, as: "ExtensionEvent", with: chime__v1__extension_event__unpack) { m throws(ChimeError) in
      let e = m.pointee
      return ExtensionEvent(
        registered: e.registered != 0,
        delivered: try e.delivered.map { (d) throws(ChimeError) in try RequestProto.delivered(d, "delivered") },
        response: try e.response.map { (r) throws(ChimeError) in try CategoryProto.response(r.pointee, "response") })
    }
  }
}
