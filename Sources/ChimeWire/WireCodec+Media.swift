public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Media play/pause buttons: `PressMediaButton` (the user side) and `ReportMediaPlayback`
/// (the content extension).
extension WireCodec {
  /// `PressMediaButtonRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodePressMediaButtonRequest(_ press: MediaPress) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("media button press") { arena in
      let m = arena.message(chime__v1__press_media_button_request__init)
      arena.assign(&m.pointee.notification_identifier, press.notificationIdentifier)
      m.pointee.command = ExtensionProto.command(press.command)
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`, `INVALID_MEDIA_COMMAND`
  ///   (no command), `UNKNOWN_ENUM_VALUE` (field `command`).
  public static func decodePressMediaButtonRequest(_ bytes: [UInt8]) throws(ChimeError) -> MediaPress {
    try ProtoMessage.decode(bytes, as: "PressMediaButtonRequest", with: chime__v1__press_media_button_request__unpack) { m throws(ChimeError) in
      MediaPress(notificationIdentifier: try ProtoMessage.text(m.pointee.notification_identifier, "notification_identifier"),
                 command: try ExtensionProto.command(m.pointee.command, "command"))
    }
  }

  /// `PressMediaButtonResponse`: the extension the press was shown to.
  public static func encodePressMediaButtonResponse(_ extensionIdentifier: String) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__press_media_button_response__init)
      arena.assign(&m.pointee.extension_identifier, extensionIdentifier)
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`.
  public static func decodePressMediaButtonResponse(_ bytes: [UInt8]) throws(ChimeError) -> String {
    try ProtoMessage.decode(bytes, as: "PressMediaButtonResponse", with: chime__v1__press_media_button_response__unpack) { m throws(ChimeError) in
      try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier")
    }
  }

  /// `ReportMediaPlaybackRequest`.
  ///
  /// - Throws: INVALID_ARGUMENT `FIELD_CONTAINS_NUL` when a string holds a NUL.
  public static func encodeReportMediaPlaybackRequest(_ report: MediaPlaybackReport) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("media playback report") { arena in
      let m = arena.message(chime__v1__report_media_playback_request__init)
      arena.assign(&m.pointee.extension_identifier, report.extensionIdentifier)
      arena.assign(&m.pointee.notification_identifier, report.notificationIdentifier)
      m.pointee.playback = ExtensionProto.playback(report.playback)
      return m
    }
  }

  /// - Throws: INVALID_ARGUMENT `MALFORMED_PAYLOAD`, `FIELD_CONTAINS_NUL`, `INVALID_MEDIA_COMMAND`
  ///   (no playback state), `UNKNOWN_ENUM_VALUE` (field `playback`).
  public static func decodeReportMediaPlaybackRequest(_ bytes: [UInt8]) throws(ChimeError) -> MediaPlaybackReport {
    try ProtoMessage.decode(bytes, as: "ReportMediaPlaybackRequest", with: chime__v1__report_media_playback_request__unpack) { m throws(ChimeError) in
      guard let playback = try ExtensionProto.playback(m.pointee.playback, "playback") else {
        throw ChimeError(.invalidMediaCommand, "name the playback state: playing or paused", field: "playback")
      }
      return MediaPlaybackReport(extensionIdentifier: try ProtoMessage.text(m.pointee.extension_identifier, "extension_identifier"),
                                 notificationIdentifier: try ProtoMessage.text(m.pointee.notification_identifier, "notification_identifier"),
                                 playback: playback)
    }
  }
}
