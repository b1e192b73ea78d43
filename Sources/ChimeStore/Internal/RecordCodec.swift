import ChimeCore
import ChimeWire

/// The `body` columns: protobuf (the wire contract's messages, through ChimeWire). A record
/// costs a few microseconds to pack; the JSON this replaced took about two thirds of the
/// writer's CPU per add.
struct RecordCodec: Sendable {
  func encode(_ pending: PendingRequest) -> [UInt8] {
    WireCodec.encodePendingRequest(pending)
  }

  /// The request packed once, for its row and its event (`eventBody(_:packedPending:)`).
  func pack(_ pending: PendingRequest) -> [UInt8] {
    WireCodec.encodePendingRequest(pending)
  }

  func encode(_ delivered: DeliveredNotification) -> [UInt8] {
    WireCodec.encodeDeliveredNotification(delivered)
  }

  func decode(_ type: PendingRequest.Type, from body: [UInt8]) throws -> PendingRequest {
    try WireCodec.decodePendingRequest(body)
  }

  func decode(_ type: DeliveredNotification.Type, from body: [UInt8]) throws -> DeliveredNotification {
    try WireCodec.decodeDeliveredNotification(body)
  }

  func encode(_ category: NotificationCategory) -> [UInt8] {
    WireCodec.encodeCategory(category)
  }

  func decode(_ type: NotificationCategory.Type, from body: [UInt8]) throws -> NotificationCategory {
    try WireCodec.decodeCategory(body)
  }

  /// The `event.body` of `event` (cursor, app, instant and kind are columns too; the columns win).
  func eventBody(_ event: Event) -> [UInt8] {
    WireCodec.encodeEvent(event)
  }

  /// `eventBody(event)` with `event.pending` already packed by `pack(_:)`.
  func eventBody(_ event: Event, packedPending: [UInt8]) -> [UInt8] {
    WireCodec.encodeEvent(event, packedPending: packedPending)
  }

  func decode(_ type: EventBody.Type, from body: [UInt8]) throws -> EventBody {
    EventBody(event: try WireCodec.decodeEvent(body))
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
