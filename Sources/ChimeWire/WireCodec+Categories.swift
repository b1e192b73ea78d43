public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Categories and responses: `SetCategories`, `GetCategories`, `Respond`.
extension WireCodec {
  /// `SetCategoriesRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeSetCategoriesRequest(_ categories: [NotificationCategory]) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("categories") { arena in
      let m = arena.message(chime__v1__set_categories_request__init)
      arena.assign(&m.pointee.categories, count: &m.pointee.n_categories, categories) { CategoryProto.build($0, in: arena) }
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`.
  public static func decodeSetCategoriesRequest(_ bytes: [UInt8]) throws(ChimeError) -> [NotificationCategory] {
    try ProtoMessage.decode(bytes, as: "SetCategoriesRequest", with: chime__v1__set_categories_request__unpack) { m throws(ChimeError) in
      try CategoryProto.categories(m.pointee.categories, count: m.pointee.n_categories)
    }
  }

  /// `GetCategoriesResponse`.
  public static func encodeGetCategoriesResponse(_ categories: [NotificationCategory]) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__get_categories_response__init)
      arena.assign(&m.pointee.categories, count: &m.pointee.n_categories, categories) { CategoryProto.build($0, in: arena) }
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`.
  public static func decodeGetCategoriesResponse(_ bytes: [UInt8]) throws(ChimeError) -> [NotificationCategory] {
    try ProtoMessage.decode(bytes, as: "GetCategoriesResponse", with: chime__v1__get_categories_response__unpack) { m throws(ChimeError) in
      try CategoryProto.categories(m.pointee.categories, count: m.pointee.n_categories)
    }
  }

  /// `RespondRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeRespondRequest(_ response: NotificationResponse) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("response") { arena in
      let m = arena.message(chime__v1__respond_request__init)
      m.pointee.response = CategoryProto.build(response, in: arena)
      return m
    }
  }

  /// An unset `response` decodes as a response with an empty notification identifier.
  ///
  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`.
  public static func decodeRespondRequest(_ bytes: [UInt8]) throws(ChimeError) -> NotificationResponse {
    try ProtoMessage.decode(bytes, as: "RespondRequest", with: chime__v1__respond_request__unpack) { m throws(ChimeError) in
      guard let r = m.pointee.response?.pointee else { return NotificationResponse(notificationIdentifier: "", actionIdentifier: "") }
      return try CategoryProto.response(r, "response")
    }
  }

  /// `RespondResponse`.
  public static func encodeRespondResponse(_ result: RespondResult) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__respond_response__init)
      arena.assign(&m.pointee.routed_to, count: &m.pointee.n_routed_to, result.routedTo)
      m.pointee.removed = result.removed ? 1 : 0
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`.
  public static func decodeRespondResponse(_ bytes: [UInt8]) throws(ChimeError) -> RespondResult {
    try ProtoMessage.decode(bytes, as: "RespondResponse", with: chime__v1__respond_response__unpack) { m throws(ChimeError) in
      RespondResult(routedTo: try ProtoMessage.texts(m.pointee.routed_to, count: m.pointee.n_routed_to, "routed_to"),
                    removed: m.pointee.removed != 0)
    }
  }
}
