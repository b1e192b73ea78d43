public import ChimeCore
internal import CChimeProto

/// The protobuf forms of the values ChimeStore keeps in its `body` columns. The store uses the
/// wire contract as its record format: it is versioned additively already, and protobuf-c packs a
/// request in a few microseconds where JSONEncoder took tens (measured: JSON was two thirds of
/// the writer's CPU per add).
extension WireCodec {
  /// `PendingRequest`.
  public static func encodePendingRequest(_ pending: PendingRequest) -> [UInt8] {
    ProtoMessage.pack { arena in RequestProto.build(pending, in: arena) }
  }

  public static func decodePendingRequest(_ bytes: [UInt8]) throws(ChimeError) -> PendingRequest {
    try ProtoMessage.decode(bytes, as: "PendingRequest", with: chime__v1__pending_request__unpack) { m throws(ChimeError) in
      try RequestProto.pending(m, "pending")
    }
  }

  /// `DeliveredNotification`.
  public static func encodeDeliveredNotification(_ delivered: DeliveredNotification) -> [UInt8] {
    ProtoMessage.pack { arena in RequestProto.build(delivered, in: arena) }
  }

  public static func decodeDeliveredNotification(_ bytes: [UInt8]) throws(ChimeError) -> DeliveredNotification {
    try ProtoMessage.decode(bytes, as: "DeliveredNotification", with: chime__v1__delivered_notification__unpack) { m throws(ChimeError) in
      try RequestProto.delivered(m, "delivered")
    }
  }
}
