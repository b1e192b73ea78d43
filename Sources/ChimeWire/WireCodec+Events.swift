public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// `Subscribe`: where a stream resumes, and the events it carries.
extension WireCodec {
  /// `SubscribeRequest`: resume after `cursor`, or nil to start with new events.
  public static func encodeSubscribeRequest(after cursor: UInt64?) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__subscribe_request__init)
      if let cursor {
        m.pointee.resume_case = CHIME__V1__SUBSCRIBE_REQUEST__RESUME_AFTER_CURSOR
        m.pointee.after_cursor = cursor
      }
      return m
    }
  }

  public static func decodeSubscribeRequest(_ bytes: [UInt8]) throws(ChimeError) -> UInt64? {
    try ProtoMessage.decode(bytes, as: "SubscribeRequest", with: chime__v1__subscribe_request__unpack) { m throws(ChimeError) in
      m.pointee.resume_case == CHIME__V1__SUBSCRIBE_REQUEST__RESUME_AFTER_CURSOR ? m.pointee.after_cursor : nil
    }
  }

  /// `Event`: what a subscriber's stream carries, in the form the store keeps in its event log.
  public static func encodeEvent(_ event: Event) -> [UInt8] {
    RecordCodec().encode(event)
  }

  /// - Throws: also `UNKNOWN_ENUM_VALUE` with field `kind` for an UNSPECIFIED or unknown kind
  ///   (a newer daemon's event); a subscriber may skip such events.
  public static func decodeEvent(_ bytes: [UInt8]) throws(ChimeError) -> Event {
    try RecordCodec().decode(Event.self, from: bytes)
  }
}
