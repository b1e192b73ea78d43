import ChimeCore
import ChimeWire
import FoundationEssentials

/// The `body` columns: protobuf (the wire contract's messages, through ChimeWire). A record
/// costs a few microseconds to pack; the JSON this replaced took about two thirds of the
/// writer's CPU per add.
struct RecordCodec: Sendable {
  func encode(_ pending: PendingRequest) -> Data {
    Data(WireCodec.encodePendingRequest(pending))
  }

  /// The request packed once, for its row and its event (`eventBody(_:packedPending:)`).
  func pack(_ pending: PendingRequest) -> [UInt8] {
    WireCodec.encodePendingRequest(pending)
  }

  func encode(_ delivered: DeliveredNotification) -> Data {
    Data(WireCodec.encodeDeliveredNotification(delivered))
  }

  func decode(_ type: PendingRequest.Type, from body: Data) throws -> PendingRequest {
    try WireCodec.decodePendingRequest([UInt8](body))
  }

  func decode(_ type: DeliveredNotification.Type, from body: Data) throws -> DeliveredNotification {
    try WireCodec.decodeDeliveredNotification([UInt8](body))
  }

  func encode(_ category: NotificationCategory) -> Data {
    Data(WireCodec.encodeCategory(category))
  }

  func decode(_ type: NotificationCategory.Type, from body: Data) throws -> NotificationCategory {
    try WireCodec.decodeCategory([UInt8](body))
  }

  /// The `event.body` of `event` (cursor, app, instant and kind are columns too; the columns win).
  func eventBody(_ event: Event) -> [UInt8] {
    WireCodec.encodeEvent(event)
  }

  /// `eventBody(event)` with `event.pending` already packed by `pack(_:)`.
  func eventBody(_ event: Event, packedPending: [UInt8]) -> [UInt8] {
    WireCodec.encodeEvent(event, packedPending: packedPending)
  }

  func decode(_ type: EventBody.Type, from body: Data) throws -> EventBody {
    EventBody(event: try WireCodec.decodeEvent([UInt8](body)))
  }
}

/// What an `event` row's `body` holds; cursor, app, instant and kind are columns.
struct EventBody {
  var event: Event

  func event(cursor: UInt64, at: Instant, kind: Event.Kind) -> Event {
    var e = event
    e.cursor = cursor
    e.at = at
    e.kind = kind
    return e
  }
}
