/// A press of a delivered notification's media play/pause button (mediaPlay / mediaPause).
public enum MediaCommand: String, Hashable, Sendable, CaseIterable {
  case play, pause
}

/// What a content extension reported about its media (mediaPlayingStarted / mediaPlayingPaused).
public enum MediaPlayback: String, Hashable, Sendable, CaseIterable {
  case playing, paused
}

/// What a content extension's stream carries for a media button press.
public struct MediaPress: Hashable, Sendable {
  public var notificationIdentifier: String
  public var command: MediaCommand

  public init(notificationIdentifier: String, command: MediaCommand) {
    self.notificationIdentifier = notificationIdentifier
    self.command = command
  }
}

/// What `ReportMediaPlayback` carries.
public struct MediaPlaybackReport: Hashable, Sendable {
  public var extensionIdentifier: String
  public var notificationIdentifier: String
  public var playback: MediaPlayback

  public init(extensionIdentifier: String, notificationIdentifier: String, playback: MediaPlayback) {
    self.extensionIdentifier = extensionIdentifier
    self.notificationIdentifier = notificationIdentifier
    self.playback = playback
  }
}

/// The checks of media button presses and playback reports, without I/O.
public enum MediaControl {
  /// Which extension a press of `identifier`'s media button goes to: `live`, the first live
  /// extension (by identifier) of the notification's category.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED` (`delivered` is nil), FAILED_PRECONDITION
  ///   `EXTENSION_NOT_LIVE` (no extension is live for its category), `MEDIA_BUTTON_NOT_AVAILABLE`
  ///   (the live extension has no media button).
  public static func checkPress(_ identifier: String, delivered: DeliveredNotification?,
                                live: ExtensionRegistration?) throws(ChimeError) -> String {
    guard let delivered else {
      throw ChimeError(.notificationNotDelivered, "\"\(identifier)\" is not a delivered notification", field: "notification_identifier")
    }
    let category = delivered.request.content.categoryIdentifier
    guard let live, live.handles(category) else {
      throw ChimeError(.extensionNotLive, "no content extension is live for \"\(identifier)\"'s category \"\(category)\"",
                       field: "notification_identifier")
    }
    guard live.attributes.mediaButton.isPresent else {
      throw ChimeError(.mediaButtonNotAvailable, "content extension \"\(live.extensionIdentifier)\" has no media play/pause button",
                       field: "notification_identifier")
    }
    return live.extensionIdentifier
  }

  /// Whether `registration` (the reporting extension's live registration, nil when it has
  /// none) may report about `delivered`.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED` (`delivered` is nil), FAILED_PRECONDITION
  ///   `EXTENSION_NOT_LIVE` (the extension is not live, or does not handle the notification's category).
  public static func checkReport(_ report: MediaPlaybackReport, delivered: DeliveredNotification?,
                                 registration: ExtensionRegistration?) throws(ChimeError) {
    guard let registration else {
      throw ChimeError(.extensionNotLive, "content extension \"\(report.extensionIdentifier)\" is not registered on a live connection",
                       field: "extension_identifier")
    }
    guard let delivered else {
      throw ChimeError(.notificationNotDelivered, "\"\(report.notificationIdentifier)\" is not a delivered notification",
                       field: "notification_identifier")
    }
    let category = delivered.request.content.categoryIdentifier
    guard registration.handles(category) else {
      throw ChimeError(.extensionNotLive, "content extension \"\(report.extensionIdentifier)\" does not handle category \"\(category)\"",
                       field: "notification_identifier")
    }
  }
}
