/// What Chime plays for a delivery.
public enum SoundChoice: Hashable, Sendable {
  case silent
  /// A resolved sound file; `volume` (0...1) only for a critical sound that stays critical.
  case file(path: String, volume: Double?)
  /// The system's default sound: the sound theme's `message-new-instant` event.
  case themeDefault(volume: Double?)

  /// The sound theme event the default sound plays.
  public static let defaultEventID = "message-new-instant"
  /// Where that event's file lives in the freedesktop theme, for a player command.
  public static let defaultThemeFile = "/usr/share/sounds/freedesktop/stereo/message-new-instant.oga"

  public var isSilent: Bool { self == .silent }
}

/// Whether a delivered notification is shown and what it plays, from the app's settings. Pure.
///
/// - No alert permission: not shown (the delivery is still recorded and streamed).
/// - Delivered quietly (Do Not Disturb): neither shown nor heard.
/// - The sound is what the delivery resolved to (`DeliveryShape` already applied the sound
///   permission and the critical rule); a `passive` notification is shown without sound.
/// - A critical sound that stayed critical plays at its volume (1 when none was given).
public struct PresentationDecision: Hashable, Sendable {
  public var show: Bool
  public var sound: SoundChoice

  public init(show: Bool, sound: SoundChoice) {
    self.show = show
    self.sound = sound
  }

  public static func decide(_ delivered: DeliveredNotification, allowed: AuthorizationOptions) -> PresentationDecision {
    if delivered.quiet { return PresentationDecision(show: false, sound: .silent) }
    let content = delivered.request.content
    var sound = SoundChoice.silent
    if content.interruptionLevel != .passive, allowed.contains(.sound), let resolution = delivered.sound {
      let requested = content.sound
      let critical = requested?.isCritical == true && !resolution.criticalDowngraded
      let volume = critical ? min(1, max(0, requested?.volume ?? 1)) : nil
      switch resolution.plays {
      case .named where !resolution.path.isEmpty: sound = .file(path: resolution.path, volume: volume)
      case .default: sound = .themeDefault(volume: volume)
      default: sound = .silent
      }
    }
    return PresentationDecision(show: allowed.contains(.alert), sound: sound)
  }
}

/// Which stored file stands for a notification's image until thumbnails are rendered. Pure.
public enum ThumbnailChoice {
  /// The store path of the first attachment that is an image and whose thumbnail is not
  /// hidden; nil when there is none.
  public static func storedImagePath(_ delivered: DeliveredNotification) -> String? {
    for attachment in delivered.request.content.attachments where !attachment.options.thumbnailHidden {
      if let info = attachment.info, info.mediaClass == MediaClass.image.rawValue, !info.storePath.isEmpty {
        return info.storePath
      }
    }
    return nil
  }
}
