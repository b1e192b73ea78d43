public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// `Snooze`: which delivered notification, for how long, and its snoozed entry.
extension WireCodec {
  /// `SnoozeRequest`.
  public static func encodeSnoozeRequest(_ request: SnoozeRequest) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__snooze_request__init)
      arena.assign(&m.pointee.notification_identifier, request.notificationIdentifier)
      m.pointee.duration_seconds = request.durationSeconds
      return m
    }
  }

  /// The duration is checked by the service (`SnoozeDuration`), which names the reason.
  public static func decodeSnoozeRequest(_ bytes: [UInt8]) throws(ChimeError) -> SnoozeRequest {
    try ProtoMessage.decode(bytes, as: "SnoozeRequest", with: chime__v1__snooze_request__unpack) { m throws(ChimeError) in
      SnoozeRequest(notificationIdentifier: try ProtoMessage.text(m.pointee.notification_identifier, "notification_identifier"),
                    durationSeconds: m.pointee.duration_seconds)
    }
  }

  /// `SnoozeResponse`.
  public static func encodeSnoozeResponse(_ snoozed: PendingRequest) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__snooze_response__init)
      m.pointee.snoozed = RequestProto.build(snoozed, in: arena)
      return m
    }
  }

  public static func decodeSnoozeResponse(_ bytes: [UInt8]) throws(ChimeError) -> PendingRequest {
    try ProtoMessage.decode(bytes, as: "SnoozeResponse", with: chime__v1__snooze_response__unpack) { m throws(ChimeError) in
      try RequestProto.pending(m.pointee.snoozed, "snoozed")
    }
  }
}
