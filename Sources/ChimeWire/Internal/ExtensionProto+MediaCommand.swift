internal import CChimeProto
import ChimeCore
import ChimeRecords

/// Media button presses (`PressMediaButton`, and the press an extension is shown): calls carry
/// them, no record holds one.
extension ExtensionProto {
  static func command(_ c: MediaCommand) -> Chime__V1__MediaCommand {
    switch c {
    case .play: CHIME__V1__MEDIA_COMMAND__MEDIA_COMMAND_PLAY
    case .pause: CHIME__V1__MEDIA_COMMAND__MEDIA_COMMAND_PAUSE
    }
  }

  /// - Throws: INVALID_ARGUMENT `INVALID_MEDIA_COMMAND` (unspecified), `UNKNOWN_ENUM_VALUE`.
  static func command(_ c: Chime__V1__MediaCommand, _ path: @autoclosure Path) throws(ChimeError) -> MediaCommand {
    switch c {
    case CHIME__V1__MEDIA_COMMAND__MEDIA_COMMAND_PLAY: return .play
    case CHIME__V1__MEDIA_COMMAND__MEDIA_COMMAND_PAUSE: return .pause
    case CHIME__V1__MEDIA_COMMAND__MEDIA_COMMAND_UNSPECIFIED:
      throw ChimeError(.invalidMediaCommand, "name the media command: play or pause", field: path())
    default: throw WireErrors.unknownEnum(c.rawValue, field: path())
    }
  }
}
