package import CChimeProto
package import ChimeCore

/// A content extension's attributes between `CChimeProto` structs and `ChimeCore` values.
package enum ExtensionProto {
  package typealias Path = () -> String

  package static func build(_ a: ExtensionAttributes, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__ExtensionAttributes> {
    let m = arena.message(chime__v1__extension_attributes__init)
    if let ratio = a.initialContentSizeRatio {
      m.pointee.ratio_case = CHIME__V1__EXTENSION_ATTRIBUTES__RATIO_INITIAL_CONTENT_SIZE_RATIO
      m.pointee.initial_content_size_ratio = ratio
    }
    m.pointee.default_content_hidden = a.defaultContentHidden ? 1 : 0
    m.pointee.overrides_default_title = a.overridesDefaultTitle ? 1 : 0
    m.pointee.user_interaction_enabled = a.userInteractionEnabled ? 1 : 0
    let b = a.mediaButton
    if b.isPresent || b.frame != nil || !b.tintColor.isEmpty {
      let button = arena.message(chime__v1__media_play_pause_button__init)
      button.pointee.type = switch b.type {
      case .none: CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_NONE
      case .default: CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_DEFAULT
      case .overlay: CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_OVERLAY
      }
      if let f = b.frame {
        let frame = arena.message(chime__v1__media_button_frame__init)
        frame.pointee.x = f.x
        frame.pointee.y = f.y
        frame.pointee.width = f.width
        frame.pointee.height = f.height
        button.pointee.frame = frame
      }
      arena.assign(&button.pointee.tint_color, b.tintColor)
      m.pointee.media_button = button
    }
    return m
  }

  /// Unset reads as attributes without a ratio (what a client older than them sends).
  package static func attributes(_ p: UnsafePointer<Chime__V1__ExtensionAttributes>?, _ path: @autoclosure Path) throws(ChimeError) -> ExtensionAttributes {
    guard let m = p?.pointee else { return ExtensionAttributes(initialContentSizeRatio: nil) }
    var button = MediaPlayPauseButton()
    if let b = m.media_button?.pointee {
      switch b.type {
      case CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_NONE: button.type = .none
      case CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_DEFAULT: button.type = .default
      case CHIME__V1__MEDIA_PLAY_PAUSE_BUTTON_TYPE__MEDIA_PLAY_PAUSE_BUTTON_TYPE_OVERLAY: button.type = .overlay
      default: throw WireErrors.unknownEnum(b.type.rawValue, field: "\(path()).media_button.type")
      }
      if let f = b.frame?.pointee {
        button.frame = MediaButtonFrame(x: f.x, y: f.y, width: f.width, height: f.height)
      }
      button.tintColor = try ProtoMessage.text(b.tint_color, "\(path()).media_button.tint_color")
    }
    return ExtensionAttributes(
      initialContentSizeRatio: m.ratio_case == CHIME__V1__EXTENSION_ATTRIBUTES__RATIO_INITIAL_CONTENT_SIZE_RATIO ? m.initial_content_size_ratio : nil,
      defaultContentHidden: m.default_content_hidden != 0,
      overridesDefaultTitle: m.overrides_default_title != 0,
      userInteractionEnabled: m.user_interaction_enabled != 0,
      mediaButton: button)
  }
}

/// Playback states (a delivered notification keeps its own).
extension ExtensionProto {
  package static func playback(_ p: MediaPlayback?) -> Chime__V1__MediaPlayback {
    switch p {
    case nil: CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_UNSPECIFIED
    case .playing: CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_PLAYING
    case .paused: CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_PAUSED
    }
  }

  /// Unspecified is nil.
  ///
  /// - Throws: INVALID_ARGUMENT `UNKNOWN_ENUM_VALUE`.
  package static func playback(_ p: Chime__V1__MediaPlayback, _ path: @autoclosure Path) throws(ChimeError) -> MediaPlayback? {
    switch p {
    case CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_UNSPECIFIED: return nil
    case CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_PLAYING: return .playing
    case CHIME__V1__MEDIA_PLAYBACK__MEDIA_PLAYBACK_PAUSED: return .paused
    default: throw WireErrors.unknownEnum(p.rawValue, field: path())
    }
  }
}
