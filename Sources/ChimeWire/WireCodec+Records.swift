public import ChimeCore
internal import CChimeProto

/// The protobuf forms of the values ChimeStore keeps in its `body` columns, and the event
/// built around a request the store has already packed for its row. The
/// store uses the wire contract as its record format: it is versioned additively already, and
/// protobuf-c packs a request an order of magnitude faster than a JSON encoder (bench/NOTES.md).
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

  /// `encodeEvent(event)` for an event whose `pending` is already packed (`encodePendingRequest`
  /// of the same request, as stored beside it): those bytes go in as field 6 instead of packing
  /// the request a second time. A decoder takes fields in any order, so the result decodes to
  /// `event`. An add stores its request twice (the row and its event); this packs it once.
  public static func encodeEvent(_ event: Event, packedPending: [UInt8]) -> [UInt8] {
    var rest = event
    rest.pending = nil
    return appending(field: 6, packedPending, to: encodeEvent(rest))  // Event.pending = 6
  }

  /// `bytes` with a length-delimited `field` holding `message` appended: a decoder takes fields
  /// in any order, so the result decodes as if the message had been built in.
  static func appending(field: UInt8, _ message: [UInt8], to bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    bytes.reserveCapacity(bytes.count + 11 + message.count)
    bytes.append(field << 3 | 2)
    var length = UInt64(message.count)
    while length >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: length) | 0x80)
      length >>= 7
    }
    bytes.append(UInt8(length))
    bytes += message
    return bytes
  }
}
