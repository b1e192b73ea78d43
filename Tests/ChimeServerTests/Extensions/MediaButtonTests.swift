import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// PressMediaButton and ReportMediaPlayback through the whole daemon.
@Suite(.testTimeLimit) struct MediaButtonTests {
  static let player = ExtensionAttributes(
    initialContentSizeRatio: 0.5,
    mediaButton: MediaPlayPauseButton(type: .overlay, frame: MediaButtonFrame(x: 8, y: 8, width: 44, height: 44), tintColor: "#FF8800"))

  static func song(_ id: String = "song", category: String = "music") -> NotificationRequest {
    var request = NotificationRequest.tea(id, in: nil)
    request.content.categoryIdentifier = category
    return request
  }

  @Test(arguments: Transport.allCases) func pressesReachTheExtensionAndItsReportsAreKept(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let ext = try d.client(over: transport)
    var stream = ext.registerExtension("player", categories: ["music"], attributes: Self.player).makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    _ = try await app.add(Self.song())
    #expect(try await nextMessage(&stream).delivered?.request.identifier == "song")

    #expect(try await app.pressMediaButton("song", .play) == "player")
    let play = try await nextMessage(&stream)
    #expect(play.media == MediaPress(notificationIdentifier: "song", command: .play))
    try await ext.reportMediaPlayback("song", extension: "player", .playing)
    #expect(try await app.allDelivered().first?.mediaPlayback == .playing)

    try await app.pressMediaButton("song", .pause)
    #expect(try await nextMessage(&stream).media?.command == .pause)
    try await ext.reportMediaPlayback("song", extension: "player", .paused)
    #expect(try await app.allDelivered().first?.mediaPlayback == .paused)

    // Refusals: not delivered, another app's extension, a category it does not handle.
    let missing = await caughtError { try await app.pressMediaButton("nothing", .play) }
    #expect(missing?.reason == "NOTIFICATION_NOT_DELIVERED" && missing?.code == .notFound)
    let stranger = await caughtError { try await app.reportMediaPlayback("song", extension: "other", .playing) }
    #expect(stranger?.reason == "EXTENSION_NOT_LIVE" && stranger?.field == "extension_identifier")
    _ = try await app.add(Self.song("news", category: "news"))
    let elsewhere = await caughtError { try await ext.reportMediaPlayback("news", extension: "player", .playing) }
    #expect(elsewhere?.reason == "EXTENSION_NOT_LIVE" && elsewhere?.code == .failedPrecondition)
    let noExtension = await caughtError { try await app.pressMediaButton("news", .play) }
    #expect(noExtension?.reason == "EXTENSION_NOT_LIVE")
  }

  @Test(arguments: Transport.allCases) func anExtensionWithoutAButtonIsNotPressed(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    var stream = app.registerExtension("viewer", categories: ["music"], attributes: ExtensionAttributes(initialContentSizeRatio: 1))
      .makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    _ = try await app.add(Self.song())
    let refused = await caughtError { try await app.pressMediaButton("song", .play) }
    #expect(refused?.reason == "MEDIA_BUTTON_NOT_AVAILABLE" && refused?.code == .failedPrecondition)
  }

  @Test func theReportedPlaybackSurvivesARestart() async throws {
    let d = try InProcessDaemon()
    do {
      let client = try d.client()
      var stream = client.registerExtension("player", categories: ["music"], attributes: Self.player).makeAsyncIterator()
      #expect(try await nextMessage(&stream).registered)
      _ = try await client.add(Self.song())
      try await client.reportMediaPlayback("song", extension: "player", .playing)
    }
    try d.restart()
    let delivered = try await d.client().allDelivered().first
    #expect(delivered?.mediaPlayback == .playing)
    #expect(delivered?.extensionAttributes == Self.player)
  }
}
