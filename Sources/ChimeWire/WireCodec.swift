public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Encodes and decodes the payloads of the NotificationCenter calls (`notification_center.proto`)
/// as ChimeCore values.
///
/// Encoding never fails. Decoding treats the bytes as hostile and throws `ChimeError`
/// INVALID_ARGUMENT: `MALFORMED_PAYLOAD` for bytes that are not the message or a string that is not
/// UTF-8, `UNKNOWN_ENUM_VALUE` for an enum value this build does not know; `field` names the path,
/// e.g. `request.content.interruption_level`. Empty bytes decode as the message's defaults.
public enum WireCodec {
  // MARK: Add

  /// `AddRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeAddRequest(_ request: NotificationRequest) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("request") { arena in
      let m = arena.message(chime__v1__add_request__init)
      m.pointee.request = RequestProto.build(request, in: arena)
      return m
    }
  }

  public static func decodeAddRequest(_ bytes: [UInt8]) throws(ChimeError) -> NotificationRequest {
    try ProtoMessage.decode(bytes, as: "AddRequest", with: chime__v1__add_request__unpack) { m throws(ChimeError) in
      try RequestProto.request(m.pointee.request, "request")
    }
  }

  /// `AddResponse`.
  /// A result whose request its store already packed (`packedPending`) carries those bytes as
  /// field 1 (`pending`), appended: a decoder takes fields in any order.
  public static func encodeAddResponse(_ result: AddResult) -> [UInt8] {
    let packed = result.packedPending
    let rest = ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__add_response__init)
      if packed == nil { m.pointee.pending = RequestProto.build(result.pending, in: arena) }
      m.pointee.replaced = result.replaced ? 1 : 0
      if let delivered = result.delivered {
        m.pointee.delivered = RequestProto.build(delivered, in: arena)
      }
      return m
    }
    return packed.map { RecordCodec.appending(field: 1, $0, to: rest) } ?? rest  // AddResponse.pending = 1
  }

  public static func decodeAddResponse(_ bytes: [UInt8]) throws(ChimeError) -> AddResult {
    try ProtoMessage.decode(bytes, as: "AddResponse", with: chime__v1__add_response__unpack) { m throws(ChimeError) in
      let delivered: DeliveredNotification? =
        if let d = m.pointee.delivered { try RequestProto.delivered(d, "delivered") } else { nil }
      return AddResult(
        pending: try RequestProto.pending(m.pointee.pending, "pending"),
        replaced: m.pointee.replaced != 0,
        delivered: delivered
      )
    }
  }

  // MARK: Listing

  /// `PageRequest`. A page size outside `0...UInt32.max` is sent as `UInt32.max`, which the
  /// server refuses (INVALID_PAGE_SIZE), rather than silently becoming another size. A page
  /// token holding a NUL is refused (`FIELD_CONTAINS_NUL`).
  public static func encodePageRequest(_ page: PageRequest) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("page request") { arena in
      let m = arena.message(chime__v1__page_request__init)
      m.pointee.page_size = UInt32(exactly: page.pageSize) ?? .max
      arena.assign(&m.pointee.page_token, page.pageToken)
      return m
    }
  }

  public static func decodePageRequest(_ bytes: [UInt8]) throws(ChimeError) -> PageRequest {
    try ProtoMessage.decode(bytes, as: "PageRequest", with: chime__v1__page_request__unpack) { m throws(ChimeError) in
      PageRequest(pageSize: Int(m.pointee.page_size), pageToken: try ProtoMessage.text(m.pointee.page_token, "page_token"))
    }
  }

  /// `GetPendingResponse`.
  public static func encodeGetPendingResponse(_ page: Page<PendingRequest>) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__get_pending_response__init)
      arena.assign(&m.pointee.requests, count: &m.pointee.n_requests, page.items) { RequestProto.build($0, in: arena) }
      arena.assign(&m.pointee.next_page_token, page.nextPageToken)
      return m
    }
  }

  public static func decodeGetPendingResponse(_ bytes: [UInt8]) throws(ChimeError) -> Page<PendingRequest> {
    try ProtoMessage.decode(bytes, as: "GetPendingResponse", with: chime__v1__get_pending_response__unpack) { m throws(ChimeError) in
      var items: [PendingRequest] = []
      if let list = m.pointee.requests, m.pointee.n_requests > 0 {
        items.reserveCapacity(m.pointee.n_requests)
        for i in 0..<m.pointee.n_requests {
          items.append(try RequestProto.pending(list[i], "requests[\(i)]"))
        }
      }
      return Page(items: items, nextPageToken: try ProtoMessage.text(m.pointee.next_page_token, "next_page_token"))
    }
  }

  /// `GetDeliveredResponse`.
  public static func encodeGetDeliveredResponse(_ page: Page<DeliveredNotification>) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__get_delivered_response__init)
      arena.assign(&m.pointee.notifications, count: &m.pointee.n_notifications, page.items) { RequestProto.build($0, in: arena) }
      arena.assign(&m.pointee.next_page_token, page.nextPageToken)
      return m
    }
  }

  public static func decodeGetDeliveredResponse(_ bytes: [UInt8]) throws(ChimeError) -> Page<DeliveredNotification> {
    try ProtoMessage.decode(bytes, as: "GetDeliveredResponse", with: chime__v1__get_delivered_response__unpack) { m throws(ChimeError) in
      var items: [DeliveredNotification] = []
      if let list = m.pointee.notifications, m.pointee.n_notifications > 0 {
        items.reserveCapacity(m.pointee.n_notifications)
        for i in 0..<m.pointee.n_notifications {
          items.append(try RequestProto.delivered(list[i], "notifications[\(i)]"))
        }
      }
      return Page(items: items, nextPageToken: try ProtoMessage.text(m.pointee.next_page_token, "next_page_token"))
    }
  }

  // MARK: Removal

  /// `IdentifiersRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when an identifier holds a NUL.
  public static func encodeIdentifiersRequest(_ identifiers: [String]) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("identifiers") { arena in
      let m = arena.message(chime__v1__identifiers_request__init)
      arena.assign(&m.pointee.identifiers, count: &m.pointee.n_identifiers, identifiers)
      return m
    }
  }

  public static func decodeIdentifiersRequest(_ bytes: [UInt8]) throws(ChimeError) -> [String] {
    try ProtoMessage.decode(bytes, as: "IdentifiersRequest", with: chime__v1__identifiers_request__unpack) { m throws(ChimeError) in
      try ProtoMessage.texts(m.pointee.identifiers, count: m.pointee.n_identifiers, "identifiers")
    }
  }

  /// `RemoveResponse`: the identifiers that existed and were removed.
  public static func encodeRemoveResponse(_ removed: [String]) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__remove_response__init)
      arena.assign(&m.pointee.removed, count: &m.pointee.n_removed, removed)
      return m
    }
  }

  public static func decodeRemoveResponse(_ bytes: [UInt8]) throws(ChimeError) -> [String] {
    try ProtoMessage.decode(bytes, as: "RemoveResponse", with: chime__v1__remove_response__unpack) { m throws(ChimeError) in
      try ProtoMessage.texts(m.pointee.removed, count: m.pointee.n_removed, "removed")
    }
  }

  /// `Empty` (no bytes).
  public static func encodeEmpty(_ empty: Empty = Empty()) -> [UInt8] { [] }

  /// Accepts any valid protobuf (unknown fields are ignored), as a newer peer may send some.
  @discardableResult
  public static func decodeEmpty(_ bytes: [UInt8]) throws(ChimeError) -> Empty {
    try ProtoMessage.decode(bytes, as: "Empty", with: chime__v1__empty__unpack) { _ throws(ChimeError) in Empty() }
  }

  // MARK: Previews

  /// What `NextTriggerDatesRequest` carries: up to `count` fires of `trigger` after `after` (nil
  /// means now, 0 on the wire); a count of 0 asks for the server's default.
  public struct NextTriggerDatesRequest: Hashable, Sendable {
    public var trigger: Trigger?
    public var after: Instant?
    public var count: Int

    public init(trigger: Trigger?, after: Instant? = nil, count: Int = 0) {
      self.trigger = trigger
      self.after = after
      self.count = count
    }
  }

  /// `NextTriggerDatesRequest`. A count outside `0...UInt32.max` is sent as `UInt32.max`, which
  /// the server refuses.
  public static func encodeNextTriggerDatesRequest(_ request: NextTriggerDatesRequest) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("trigger") { arena in
      let m = arena.message(chime__v1__next_trigger_dates_request__init)
      if let trigger = request.trigger {
        m.pointee.trigger = RequestProto.build(trigger, in: arena)
      }
      m.pointee.after_unix_ms = request.after?.unixMillis ?? 0
      m.pointee.count = UInt32(exactly: request.count) ?? .max
      return m
    }
  }

  /// `NextTriggerDatesRequest` from its parts.
  public static func encodeNextTriggerDatesRequest(trigger: Trigger?, after: Instant?, count: Int) throws(ChimeError) -> [UInt8] {
    try encodeNextTriggerDatesRequest(NextTriggerDatesRequest(trigger: trigger, after: after, count: count))
  }

  public static func decodeNextTriggerDatesRequest(_ bytes: [UInt8]) throws(ChimeError) -> NextTriggerDatesRequest {
    try ProtoMessage.decode(bytes, as: "NextTriggerDatesRequest", with: chime__v1__next_trigger_dates_request__unpack) { m throws(ChimeError) in
      let after = m.pointee.after_unix_ms
      return NextTriggerDatesRequest(
        trigger: try RequestProto.trigger(m.pointee.trigger, "trigger"),
        after: after == 0 ? nil : Instant(unixMillis: after),
        count: Int(m.pointee.count)
      )
    }
  }

  /// `NextTriggerDatesResponse`. A UTC offset outside Int32 is clamped (real ones are within a day).
  public static func encodeNextTriggerDatesResponse(_ dates: [FireDate]) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__next_trigger_dates_response__init)
      arena.assign(&m.pointee.dates, count: &m.pointee.n_dates, dates) { date in
        let d = arena.message(chime__v1__fire_date__init)
        d.pointee.unix_ms = date.instant.unixMillis
        arena.assign(&d.pointee.time_zone, date.zoneIdentifier)
        d.pointee.utc_offset_seconds = Int32(clamping: date.utcOffsetSeconds)
        arena.assign(&d.pointee.dst_note, date.dstNote ?? "")
        return d
      }
      return m
    }
  }

  public static func decodeNextTriggerDatesResponse(_ bytes: [UInt8]) throws(ChimeError) -> [FireDate] {
    try ProtoMessage.decode(bytes, as: "NextTriggerDatesResponse", with: chime__v1__next_trigger_dates_response__unpack) { m throws(ChimeError) in
      var dates: [FireDate] = []
      guard let list = m.pointee.dates, m.pointee.n_dates > 0 else { return dates }
      dates.reserveCapacity(m.pointee.n_dates)
      for i in 0..<m.pointee.n_dates {
        guard let d = list[i]?.pointee else {
          dates.append(FireDate(instant: Instant(unixMillis: 0), utcOffsetSeconds: 0, zoneIdentifier: ""))
          continue
        }
        let note = try ProtoMessage.text(d.dst_note, "dates[\(i)].dst_note")
        dates.append(FireDate(
          instant: Instant(unixMillis: d.unix_ms),
          utcOffsetSeconds: Int(d.utc_offset_seconds),
          zoneIdentifier: try ProtoMessage.text(d.time_zone, "dates[\(i)].time_zone"),
          dstNote: note.isEmpty ? nil : note
        ))
      }
      return dates
    }
  }
}
