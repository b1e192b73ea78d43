import ChimeCore
import Testing

@Suite struct MediaControlTests {
  static func delivered(category: String) -> DeliveredNotification {
    var request = NotificationRequest(identifier: "song", content: NotificationContent(title: "Song"))
    request.content.categoryIdentifier = category
    return DeliveredNotification(request: request, delivered: Instant(unixMillis: 0), due: Instant(unixMillis: 0))
  }

  static func registration(_ id: String = "player", categories: [String] = ["music"], button: MediaPlayPauseButtonType = .default) -> ExtensionRegistration {
    ExtensionRegistration(extensionIdentifier: id, categoryIdentifiers: categories, attributes: ExtensionAttributes(
      initialContentSizeRatio: 1, mediaButton: MediaPlayPauseButton(type: button, frame: MediaButtonFrame(x: 0, y: 0, width: 4, height: 4))))
  }

  @Test(arguments: [
    (nil, registration(), "NOTIFICATION_NOT_DELIVERED notification_identifier"),
    (delivered(category: "music"), nil, "EXTENSION_NOT_LIVE notification_identifier"),
    (delivered(category: ""), registration(), "EXTENSION_NOT_LIVE notification_identifier"),
    (delivered(category: "news"), registration(), "EXTENSION_NOT_LIVE notification_identifier"),
    (delivered(category: "music"), registration(button: .none), "MEDIA_BUTTON_NOT_AVAILABLE notification_identifier"),
  ] as [(DeliveredNotification?, ExtensionRegistration?, String)])
  func refusesPresses(_ delivered: DeliveredNotification?, _ live: ExtensionRegistration?, _ expected: String) {
    do {
      _ = try MediaControl.checkPress("song", delivered: delivered, live: live)
      Issue.record("expected \(expected)")
    } catch {
      #expect("\(error.reason) \(error.field)" == expected)
    }
  }

  @Test func aPressGoesToTheLiveExtension() throws {
    #expect(try MediaControl.checkPress("song", delivered: Self.delivered(category: "music"), live: Self.registration(button: .overlay)) == "player")
  }

  static let report = MediaPlaybackReport(extensionIdentifier: "player", notificationIdentifier: "song", playback: .playing)

  @Test(arguments: [
    (delivered(category: "music"), nil, "EXTENSION_NOT_LIVE extension_identifier"),
    (nil, registration(), "NOTIFICATION_NOT_DELIVERED notification_identifier"),
    (delivered(category: "news"), registration(), "EXTENSION_NOT_LIVE notification_identifier"),
  ] as [(DeliveredNotification?, ExtensionRegistration?, String)])
  func refusesReports(_ delivered: DeliveredNotification?, _ registration: ExtensionRegistration?, _ expected: String) {
    do {
      try MediaControl.checkReport(Self.report, delivered: delivered, registration: registration)
      Issue.record("expected \(expected)")
    } catch {
      #expect("\(error.reason) \(error.field)" == expected)
    }
  }

  @Test func aReportFromTheCategorysExtensionIsAccepted() throws {
    // Whether it has a media button does not matter: the extension plays its own media.
    try MediaControl.checkReport(Self.report, delivered: Self.delivered(category: "music"), registration: Self.registration(button: .none))
  }
}
