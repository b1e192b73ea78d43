public import ChimeCore
internal import CChimeProto

/// The bytes of the records ChimeStore keeps in its `body` columns: pending requests, delivered
/// notifications, categories and events, each as the contract's protobuf message
/// (`chime.v1.PendingRequest`, ...). The contract evolves additively, so a row written by an
/// older daemon reads back in a newer one; protobuf-c packs a request an order of magnitude
/// faster than a JSON encoder. ChimeWire puts the same messages inside call payloads.
///
/// Encoding never fails. Decoding throws `ChimeError` INVALID_ARGUMENT: `MALFORMED_PAYLOAD` for
/// bytes that are not the message or a string that is not UTF-8, `UNKNOWN_ENUM_VALUE` for an
/// enum value this build does not know; `field` names the path (`pending.request.identifier`).
public struct RecordCodec: Sendable {
  public init() {}

  public func encode(_ pending: PendingRequest) -> [UInt8] {
    ProtoMessage.pack { arena in RequestProto.build(pending, in: arena) }
  }

  public func decode(_ type: PendingRequest.Type, from bytes: [UInt8]) throws(ChimeError) -> PendingRequest {
    try ProtoMessage.decode(bytes, as: "PendingRequest", with: chime__v1__pending_request__unpack) { m throws(ChimeError) in
      try RequestProto.pending(m, "pending")
    }
  }

  public func encode(_ delivered: DeliveredNotification) -> [UInt8] {
    ProtoMessage.pack { arena in RequestProto.build(delivered, in: arena) }
  }

  public func decode(_ type: DeliveredNotification.Type, from bytes: [UInt8]) throws(ChimeError) -> DeliveredNotification {
    try ProtoMessage.decode(bytes, as: "DeliveredNotification", with: chime__v1__delivered_notification__unpack) { m throws(ChimeError) in
      try RequestProto.delivered(m, "delivered")
    }
  }

  public func encode(_ category: NotificationCategory) -> [UInt8] {
    ProtoMessage.pack { arena in CategoryProto.build(category, in: arena) }
  }

  public func decode(_ type: NotificationCategory.Type, from bytes: [UInt8]) throws(ChimeError) -> NotificationCategory {
    try ProtoMessage.decode(bytes, as: "Category", with: chime__v1__category__unpack) { m throws(ChimeError) in
      try CategoryProto.category(m.pointee, "category")
    }
  }

  public func encode(_ event: Event) -> [UInt8] {
    ProtoMessage.pack { arena in EventProto.build(event, in: arena) }
  }

  /// `encode(event)` for an event whose `pending` is already packed (`encode(_:)` of the same
  /// request, as stored beside it): those bytes go in as field 6 instead of packing the request
  /// a second time. A decoder takes fields in any order, so the result decodes to `event`. An
  /// add stores its request twice (the row and its event); this packs it once.
  public func encode(_ event: Event, packedPending: [UInt8]) -> [UInt8] {
    var rest = event
    rest.pending = nil
    return Self.appending(field: 6, packedPending, to: encode(rest))  // Event.pending = 6
  }

  /// `encode(Event(at: at, kind: kind, identifiers: [identifier]), packedPending:)`, byte for
  /// byte, written without building the event or going through protobuf-c: the body of the
  /// event every add appends, packed where the add is made (on chimed's loop) for about a
  /// tenth of the instructions. Its fields in field order, as protobuf-c writes them: the
  /// instant, the kind, the identifier, then the request (`RecordCodecTests` compares the two).
  public func encodeEvent(at: Instant, kind: Event.Kind, identifier: String, packedPending: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32 + identifier.utf8.count + packedPending.count)
    if at.unixMillis != 0 {
      bytes.append(2 << 3)  // at_unix_ms, a varint (an int64: a negative one takes ten bytes)
      Self.appendVarint(UInt64(bitPattern: at.unixMillis), to: &bytes)
    }
    bytes.append(3 << 3)  // kind
    Self.appendVarint(UInt64(EventProto.protoKind(kind)), to: &bytes)
    // Cut at a NUL, as the C string protobuf-c packs is (`CArena.string`); chimed refuses such
    // identifiers before any add is made.
    let utf8 = identifier.utf8.prefix { $0 != 0 }
    bytes.append(4 << 3 | 2)  // identifiers
    Self.appendVarint(UInt64(utf8.count), to: &bytes)
    bytes += utf8
    return Self.appending(field: 6, packedPending, to: bytes)  // Event.pending = 6
  }

  /// - Throws: also `UNKNOWN_ENUM_VALUE` with field `kind` for an UNSPECIFIED or unknown kind
  ///   (a newer daemon's event).
  public func decode(_ type: Event.Type, from bytes: [UInt8]) throws(ChimeError) -> Event {
    try ProtoMessage.decode(bytes, as: "Event", with: chime__v1__event__unpack) { m throws(ChimeError) in
      try EventProto.event(m)
    }
  }

  /// `bytes` with a length-delimited `field` holding `message` appended: a decoder takes fields
  /// in any order, so the result decodes as if the message had been built in.
  package static func appending(field: UInt8, _ message: [UInt8], to bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    bytes.reserveCapacity(bytes.count + 11 + message.count)
    bytes.append(field << 3 | 2)
    appendVarint(UInt64(message.count), to: &bytes)
    bytes += message
    return bytes
  }

  /// `value` as a protobuf varint (seven bits a byte, low first), appended to `bytes`.
  package static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }
}
