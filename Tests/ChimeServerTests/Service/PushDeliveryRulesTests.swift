import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Testing

/// What a pushed payload becomes through the whole daemon: which of a repeated key's values
/// reaches user info, that a payload is one JSON document and nothing after it, and that a
/// push is delivered under the same authorization rules as `Add` (the table of
/// `AuthorizationTests`, for the push path).
@Suite(.testTimeLimit) struct PushDeliveryRulesTests {
  func bytes(_ json: String) -> [UInt8] { Array(json.utf8) }

  @Test(arguments: Transport.allCases) func aRepeatedUserInfoKeyKeepsItsLastValue(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let cases: [(payload: String, userInfo: String)] = [
      (#"{"aps":{"alert":"x"},"k":1,"k":2}"#, #"{"k":2}"#),
      (#"{"k":"first","aps":{"alert":"x"},"other":true,"k":"last"}"#, #"{"other":true,"k":"last"}"#),
      (#"{"aps":{"alert":"x"},"k":{"a":1},"m":0,"k":[3]}"#, #"{"m":0,"k":[3]}"#),
    ]
    for (n, (payload, userInfo)) in cases.enumerated() {
      let result = try await app.push(bytes(payload), identifier: "p\(n)")
      #expect(result.delivered.request.content.userInfoJSON == userInfo, "\(payload)")
    }
    let stored = try await app.allDelivered().sorted { $0.request.identifier < $1.request.identifier }
    #expect(stored.map(\.request.content.userInfoJSON) == cases.map(\.userInfo), "the stored records keep the last values too")
    // The same rule for aps itself.
    let aps = try await app.push(bytes(#"{"aps":{"alert":"first"},"aps":{"alert":"second"}}"#), identifier: "aps")
    #expect(aps.delivered.request.content.body == "second")
  }

  @Test(arguments: Transport.allCases) func textAfterTheJSONDocumentIsRefused(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(over: transport)
    let refused = [
      #"{"aps":{"alert":"x"}} junk"#,
      #"{"aps":{"alert":"x"}}{"aps":{"alert":"y"}}"#,
      #"{"aps":{"alert":"x"}} {"aps":{"alert":"y"}}"#,
      #"{"aps":{"alert":"x"}},"#,
      #"{"aps":{"alert":"x"}}}"#,
      #"{"aps":{"alert":"x"}} 1"#,
      "{\"aps\":{\"alert\":\"x\"}}\u{0}",
    ]
    for payload in refused {
      let error = await caughtError { _ = try await app.push(bytes(payload)) }
      #expect(error?.reason == "INVALID_PUSH_PAYLOAD" && error?.field == "payload" && error?.code == .invalidArgument,
              "\(payload.debugDescription): \(String(describing: error))")
    }
    #expect(try await app.allDelivered().isEmpty, "nothing of a refused payload is delivered")
    // Space around the document is not text after it.
    let spaced = try await app.push(bytes(" \n{\"aps\":{\"alert\":\"x\"}} \t\r\n"), identifier: "spaced")
    #expect(spaced.delivered.request.content.body == "x")
  }

  /// One row of the table: the permissions the app was granted (nil: it never asked), the
  /// payload's interruption level, and what is delivered.
  struct LevelCase: Sendable {
    var granted: AuthorizationOptions?
    var level: String
    var delivered: InterruptionLevel
    var lowered: InterruptionLevel?
  }

  static let levelCases: [LevelCase] = [
    LevelCase(granted: nil, level: "time-sensitive", delivered: .active, lowered: .timeSensitive),
    LevelCase(granted: nil, level: "critical", delivered: .active, lowered: .critical),
    LevelCase(granted: [.alert], level: "time-sensitive", delivered: .active, lowered: .timeSensitive),
    LevelCase(granted: [.alert], level: "critical", delivered: .active, lowered: .critical),
    LevelCase(granted: [.alert, .timeSensitive], level: "time-sensitive", delivered: .timeSensitive),
    LevelCase(granted: [.alert, .timeSensitive], level: "critical", delivered: .active, lowered: .critical),
    LevelCase(granted: [.alert, .criticalAlert], level: "critical", delivered: .critical),
    LevelCase(granted: [.alert, .criticalAlert], level: "time-sensitive", delivered: .active, lowered: .timeSensitive),
    LevelCase(granted: [.alert], level: "passive", delivered: .passive),
    LevelCase(granted: [.alert], level: "active", delivered: .active),
  ]

  @Test(arguments: Transport.allCases) func aPushedLevelIsLoweredToActiveWithoutItsPermission(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    for (n, row) in Self.levelCases.enumerated() {
      let app = try d.client(app: "org.example.level\(n)", over: transport)
      if let granted = row.granted { _ = try await app.requestAuthorization(granted) }
      var events = app.subscribe().makeAsyncIterator()
      _ = try await nextEvent(&events) { $0.kind == .subscribed }
      let what = "\(row.level) with \(row.granted.map { "\($0)" } ?? "no request")"

      let result = try await app.push(bytes(#"{"aps":{"alert":"x","interruption-level":"\#(row.level)"}}"#), identifier: "p")
      #expect(result.delivered.request.content.interruptionLevel == row.delivered, "\(what): the reply")
      let event = try await nextEvent(&events) { $0.kind == .delivered }
      #expect(event.delivered?.request.content.interruptionLevel == row.delivered, "\(what): the delivered event")
      #expect(try await app.allDelivered().first?.request.content.interruptionLevel == row.delivered, "\(what): the stored record")
      if let lowered = row.lowered {
        #expect(event.note.contains(DeliveryShape.levelNote(lowered)), "\(what): \(event.note)")
      } else {
        #expect(!event.note.contains("interruption level"), "\(what): \(event.note)")
      }
    }
  }

  /// The level a service extension puts in its content is held to the same rule.
  @Test func anExtensionsLevelIsLoweredToActiveWithoutItsPermission() async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.news")
    _ = try await app.requestAuthorization([.alert])
    let ext = try d.client(app: "org.example.news")
    var stream = ext.registerServiceExtension("svc").makeAsyncIterator()
    #expect(try await nextMessage(&stream).registered)
    async let pushed = app.push(bytes(#"{"aps":{"alert":"x","mutable-content":1}}"#), identifier: "m")
    let asked = try #require(try await nextMessage(&stream).serviceRequest)
    var content = NotificationContent(title: "Now")
    content.interruptionLevel = .critical
    try await ext.answerService(asked.id, extension: "svc", with: .content(content))
    let result = try await pushed
    #expect(result.delivered.push?.source == .extension)
    #expect(result.delivered.request.content.title == "Now")
    #expect(result.delivered.request.content.interruptionLevel == .active)
    #expect(try await app.allDelivered().first?.request.content.interruptionLevel == .active)
  }

  @Test func aPushedCriticalSoundStaysCriticalOnlyWithCriticalAlert() async throws {
    let d = try InProcessDaemon()
    let plain = try d.client(app: "org.example.plain")
    let alarm = try d.client(app: "org.example.alarm")
    _ = try await plain.requestAuthorization([.alert, .sound])
    _ = try await alarm.requestAuthorization([.alert, .sound, .criticalAlert])
    let payload = bytes(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"default","volume":0.5}}}"#)
    let downgraded = try await plain.push(payload).delivered.sound
    #expect(downgraded?.criticalDowngraded == true && downgraded?.plays == .default)
    let critical = try await alarm.push(payload).delivered.sound
    #expect(critical?.criticalDowngraded == false && critical?.plays == .default)
  }

  @Test func aPushedSoundAndBadgeFollowTheAppsSettings() async throws {
    let d = try InProcessDaemon()
    let quiet = try d.client(app: "org.example.quiet")
    let loud = try d.client(app: "org.example.loud")
    let user = try d.client(app: "chime.cli")
    _ = try await quiet.requestAuthorization([.alert, .sound, .badge])
    _ = try await loud.requestAuthorization([.alert, .sound, .badge])
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.quiet", disable: [.sound, .badge]))
    var events = quiet.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let payload = bytes(#"{"aps":{"alert":"x","sound":"default","badge":5}}"#)

    let silenced = try await quiet.push(payload)
    #expect(silenced.delivered.sound?.plays == SoundResolution.Plays.none)
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(event.note.contains(DeliveryShape.soundOffNote) && event.note.contains(DeliveryShape.badgeOffNote), "\(event.note)")
    #expect(try await quiet.settings().badgeCount == 0)

    let played = try await loud.push(payload)
    #expect(played.delivered.sound?.plays == .default)
    #expect(try await loud.settings().badgeCount == 5)
  }

  @Test func aProvisionalAppsPushIsQuiet() async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.news")
    _ = try await app.requestAuthorization([.alert, .sound, .badge, .provisional])
    let result = try await app.push(bytes(#"{"aps":{"alert":"x","sound":"default","badge":2}}"#))
    #expect(result.delivered.sound?.plays == SoundResolution.Plays.none)
    #expect(try await app.settings().badgeCount == 0)
  }

  @Test func aPushIdentifierWithAControlCharacterIsRefused() async throws {
    let d = try InProcessDaemon()
    let app = try d.client()
    for identifier in ["a\u{7F}", "\u{7F}", "a\u{1F}b", "é\u{85}"] {
      let error = await caughtError { _ = try await app.push(bytes(#"{"aps":{"alert":"x"}}"#), identifier: identifier) }
      #expect(error?.reason == "INVALID_IDENTIFIER", "\(identifier.debugDescription): \(String(describing: error))")
    }
    #expect(try await app.allDelivered().isEmpty)
  }
}
