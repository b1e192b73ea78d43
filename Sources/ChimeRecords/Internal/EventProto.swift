internal import CChimeProto
import ChimeCore

/// `Event` between its `CChimeProto` struct and the `ChimeCore` value: an event row's body, and
/// what a subscriber's stream carries.
enum EventProto {
  static func build(_ event: Event, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Event> {
    let m = arena.message(chime__v1__event__init)
    m.pointee.cursor = event.cursor
    m.pointee.at_unix_ms = event.at.unixMillis
    m.pointee.kind = cKind(event.kind)
    arena.assign(&m.pointee.identifiers, count: &m.pointee.n_identifiers, event.identifiers)
    if let delivered = event.delivered {
      m.pointee.delivered = RequestProto.build(delivered, in: arena)
    }
    if let pending = event.pending {
      m.pointee.pending = RequestProto.build(pending, in: arena)
    }
    if let response = event.response {
      m.pointee.response = CategoryProto.build(response, in: arena)
    }
    arena.assign(&m.pointee.note, event.note)
    m.pointee.badge_count = Int64(event.badgeCount ?? 0)
    return m
  }

  /// - Throws: also `UNKNOWN_ENUM_VALUE` with field `kind` for an UNSPECIFIED or unknown kind
  ///   (a newer daemon's event).
  static func event(_ m: UnsafePointer<Chime__V1__Event>) throws(ChimeError) -> Event {
    let e = m.pointee
    let delivered: DeliveredNotification? = if let d = e.delivered { try RequestProto.delivered(d, "delivered") } else { nil }
    let pending: PendingRequest? = if let p = e.pending { try RequestProto.pending(p, "pending") } else { nil }
    let response: NotificationResponse? = if let r = e.response { try CategoryProto.response(r.pointee, "response") } else { nil }
    return Event(
      cursor: e.cursor,
      at: Instant(unixMillis: e.at_unix_ms),
      kind: try kind(e.kind),
      identifiers: try ProtoMessage.texts(e.identifiers, count: e.n_identifiers, "identifiers"),
      delivered: delivered,
      pending: pending,
      response: response,
      note: try ProtoMessage.text(e.note, "note"),
      badgeCount: e.kind == CHIME__V1__EVENT_KIND__EVENT_KIND_BADGE_CHANGED ? Int(clamping: e.badge_count) : nil
    )
  }

  /// `kind`'s number on the wire.
  static func protoKind(_ kind: Event.Kind) -> UInt32 {
    cKind(kind).rawValue
  }

  private static func cKind(_ kind: Event.Kind) -> Chime__V1__EventKind {
    switch kind {
    case .delivered: CHIME__V1__EVENT_KIND__EVENT_KIND_DELIVERED
    case .pendingAdded: CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_ADDED
    case .pendingReplaced: CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_REPLACED
    case .pendingRemoved: CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_REMOVED
    case .deliveredRemoved: CHIME__V1__EVENT_KIND__EVENT_KIND_DELIVERED_REMOVED
    case .missedSkipped: CHIME__V1__EVENT_KIND__EVENT_KIND_MISSED_SKIPPED
    case .response: CHIME__V1__EVENT_KIND__EVENT_KIND_RESPONSE
    case .eventsLost: CHIME__V1__EVENT_KIND__EVENT_KIND_EVENTS_LOST
    case .subscribed: CHIME__V1__EVENT_KIND__EVENT_KIND_SUBSCRIBED
    case .badgeChanged: CHIME__V1__EVENT_KIND__EVENT_KIND_BADGE_CHANGED
    case .presentationFailed: CHIME__V1__EVENT_KIND__EVENT_KIND_PRESENTATION_FAILED
    case .pendingFinished: CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_FINISHED
    case .snoozed: CHIME__V1__EVENT_KIND__EVENT_KIND_SNOOZED
    case .ringEnded: CHIME__V1__EVENT_KIND__EVENT_KIND_RING_ENDED
    case .authorizationChanged: CHIME__V1__EVENT_KIND__EVENT_KIND_AUTHORIZATION_CHANGED
    }
  }

  private static func kind(_ v: Chime__V1__EventKind) throws(ChimeError) -> Event.Kind {
    switch v {
    case CHIME__V1__EVENT_KIND__EVENT_KIND_DELIVERED: .delivered
    case CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_ADDED: .pendingAdded
    case CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_REPLACED: .pendingReplaced
    case CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_REMOVED: .pendingRemoved
    case CHIME__V1__EVENT_KIND__EVENT_KIND_DELIVERED_REMOVED: .deliveredRemoved
    case CHIME__V1__EVENT_KIND__EVENT_KIND_MISSED_SKIPPED: .missedSkipped
    case CHIME__V1__EVENT_KIND__EVENT_KIND_RESPONSE: .response
    case CHIME__V1__EVENT_KIND__EVENT_KIND_EVENTS_LOST: .eventsLost
    case CHIME__V1__EVENT_KIND__EVENT_KIND_SUBSCRIBED: .subscribed
    case CHIME__V1__EVENT_KIND__EVENT_KIND_BADGE_CHANGED: .badgeChanged
    case CHIME__V1__EVENT_KIND__EVENT_KIND_PRESENTATION_FAILED: .presentationFailed
    case CHIME__V1__EVENT_KIND__EVENT_KIND_PENDING_FINISHED: .pendingFinished
    case CHIME__V1__EVENT_KIND__EVENT_KIND_SNOOZED: .snoozed
    case CHIME__V1__EVENT_KIND__EVENT_KIND_RING_ENDED: .ringEnded
    case CHIME__V1__EVENT_KIND__EVENT_KIND_AUTHORIZATION_CHANGED: .authorizationChanged
    default: throw WireErrors.unknownEnum(v.rawValue, field: "kind")
    }
  }
}
