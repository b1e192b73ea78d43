import ChimeCore
import Testing

@Suite struct RequestValidatorTests {
  func request(_ content: NotificationContent = NotificationContent(title: "Tea"), trigger: Trigger? = .timeInterval(.init(seconds: 10)), id: String = "tea") -> NotificationRequest {
    NotificationRequest(identifier: id, content: content, trigger: trigger)
  }

  func rejection(_ r: NotificationRequest) -> ChimeError? {
    do {
      try RequestValidator.validate(r)
      return nil
    } catch {
      return error
    }
  }

  @Test func acceptsAnOrdinaryRequest() {
    #expect(rejection(request()) == nil)
    #expect(rejection(request(trigger: nil)) == nil)
    #expect(rejection(request(trigger: .timeInterval(.init(seconds: 60, repeats: true)))) == nil)
  }

  @Test func refusesContentWithNothingToShow() {
    let error = rejection(request(NotificationContent()))
    #expect(error?.code == .invalidArgument)
    #expect(error?.reason == "NOTIFICATION_INVALID_NO_CONTENT")
    var silent = NotificationContent()
    silent.sound = Sound.none
    #expect(rejection(request(silent))?.reason == "NOTIFICATION_INVALID_NO_CONTENT")
    var badgeOnly = NotificationContent()
    badgeOnly.badge = 3
    #expect(rejection(request(badgeOnly)) == nil)
  }

  @Test(arguments: ["", String(repeating: "x", count: 257), "bad\nid"])
  func refusesBadIdentifiers(_ id: String) {
    let error = rejection(request(id: id))
    #expect(error?.reason == "INVALID_IDENTIFIER")
    #expect(error?.field == "request.identifier")
  }

  @Test func acceptsIdentifierAtTheLimit() {
    #expect(rejection(request(id: String(repeating: "é", count: 128))) == nil)  // 256 bytes
  }

  @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity, -Double.infinity])
  func refusesNonPositiveOrNonFiniteIntervals(_ seconds: Double) {
    let error = rejection(request(trigger: .timeInterval(.init(seconds: seconds))))
    #expect(error?.reason == "INVALID_INTERVAL")
    #expect(error?.field == "request.trigger.time_interval.seconds")
  }

  @Test func refusesRepeatingIntervalsUnderAMinute() {
    #expect(rejection(request(trigger: .timeInterval(.init(seconds: 59.9, repeats: true))))?.reason == "INVALID_INTERVAL")
    #expect(rejection(request(trigger: .timeInterval(.init(seconds: 59.9, repeats: false)))) == nil)
  }

  @Test func refusesNulInTextFields() {
    var content = NotificationContent(title: "a\u{0}b")
    #expect(rejection(request(content))?.reason == "FIELD_CONTAINS_NUL")
    content = NotificationContent(title: "ok", body: "x\u{0}")
    #expect(rejection(request(content))?.field == "request.content.body")
  }

  @Test func refusesNegativeBadge() {
    var content = NotificationContent(title: "x")
    content.badge = -1
    let error = rejection(request(content))
    #expect(error?.reason == "INVALID_BADGE")
    #expect(error?.field == "request.content.badge")
    content.badge = 0
    #expect(rejection(request(content)) == nil)
  }

  @Test(arguments: [-0.01, 1.01, Double.nan])
  func refusesRelevanceOutsideUnitRange(_ score: Double) {
    var content = NotificationContent(title: "x")
    content.relevanceScore = score
    #expect(rejection(request(content))?.reason == "INVALID_RELEVANCE_SCORE")
  }

  @Test func acceptsRelevanceBounds() {
    for score in [0.0, 0.5, 1.0] {
      var content = NotificationContent(title: "x")
      content.relevanceScore = score
      #expect(rejection(request(content)) == nil)
    }
  }

  @Test(arguments: ["[1,2]", "\"text\"", "42", "{", "{\"a\":}", "{} {}", "{\"a\":1,}", "null"])
  func refusesUserInfoThatIsNotAnObject(_ json: String) {
    var content = NotificationContent(title: "x")
    content.userInfoJSON = json
    let error = rejection(request(content))
    #expect(error?.reason == "INVALID_USER_INFO")
    #expect(error?.field == "request.content.user_info_json")
  }

  /// The refusal says where the text stops being JSON (the push reader's words), or what the
  /// document is when it is JSON but not an object.
  @Test func userInfoRefusalsSayWhereAndWhat() {
    var content = NotificationContent(title: "x")
    content.userInfoJSON = "{\"a\": 1,\n \"b\" 2}"
    #expect(rejection(request(content))?.message.contains("line 2, column 6") == true, "\(String(describing: rejection(request(content))))")
    content.userInfoJSON = "[1, 2]"
    #expect(rejection(request(content))?.message.hasSuffix("not an array") == true)
  }

  @Test func acceptsUserInfoObjects() {
    for json in ["{}", " { \"a\": [1, 2.5e3, -0.1, true, false, null, {\"b\": \"\\u00e9\\n\"}] } "] {
      var content = NotificationContent(title: "x")
      content.userInfoJSON = json
      #expect(rejection(request(content)) == nil, "\(json)")
    }
  }

  @Test func refusesUserInfoTooLargeOrTooDeep() {
    var content = NotificationContent(title: "x")
    content.userInfoJSON = "{\"k\":\"" + String(repeating: "a", count: Limits.userInfoMaxBytes) + "\"}"
    #expect(rejection(request(content))?.reason == "USER_INFO_TOO_LARGE")
    content.userInfoJSON = "{\"k\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
    #expect(rejection(request(content))?.reason == "INVALID_USER_INFO")
  }

  @Test func refusesBadSoundNamesAndVolumes() {
    for name in ["", "../x.wav", "a/b.wav", "/etc/passwd", "..", "nul\u{0}.wav"] {
      var content = NotificationContent(title: "x")
      content.sound = .named(name)
      #expect(rejection(request(content))?.reason == "INVALID_SOUND_NAME", "\(name)")
    }
    var content = NotificationContent(title: "x")
    content.sound = Sound(kind: .defaultCritical, volume: 1.5)
    #expect(rejection(request(content))?.reason == "INVALID_SOUND_VOLUME")
  }

  /// A path where a sound name belongs (`--sound /usr/share/sounds/x.wav`) is refused saying
  /// where sounds go and how to see the directories searched.
  @Test func aSoundPathIsRefusedPointingToTheSoundDirectories() {
    var content = NotificationContent(title: "x")
    content.sound = .named("/usr/share/sounds/freedesktop/stereo/bell.oga")
    let error = rejection(request(content))
    #expect(error?.reason == "INVALID_SOUND_NAME")
    let message = error?.message ?? ""
    #expect(message.contains("Library/Sounds") && message.contains("bundle"), "\(message)")
    #expect(message.contains("`chime sound check bell.oga`"), "\(message)")
  }

  @Test func refusesDuplicateAttachmentIdentifiers() {
    var content = NotificationContent(title: "x")
    content.attachments = [Attachment(identifier: "a", path: "/tmp/a.png"), Attachment(identifier: "a", path: "/tmp/b.png")]
    #expect(rejection(request(content))?.reason == "DUPLICATE_ATTACHMENT_IDENTIFIER")
  }

  @Test func appIDs() throws {
    try AppID.validate("org.example.tea")
    try AppID.validate("tea_app-2")
    try AppID.validate("a")
    try AppID.validate(String(repeating: "a", count: 255))
    for bad in ["", ".", "..", ".x", "x.", "a..b", "a...b", "a/b", "a b", "é.x", String(repeating: "a", count: 256)] {
      #expect(throws: ChimeError.self, "\(bad)") { try AppID.validate(bad) }
    }
  }

  @Test func aRefusedAppIDIsQuotedSafelyInTheMessage() {
    func message(_ id: String) -> String? {
      do { try AppID.validate(id) } catch { return error.message }
      return nil
    }
    #expect(message("org..tea")?.contains(#""org..tea""#) == true)
    // A control character or quote is escaped, not sent raw to whoever prints the message.
    let hostile = message("a\u{1B}[2J\"b")
    #expect(hostile?.contains("\u{1B}") == false)
    #expect(hostile?.contains(#"\u{1B}[2J\"b"#) == true)
    let long = message(String(repeating: "x", count: 100) + "/")
    #expect(long?.contains(String(repeating: "x", count: 64) + "…") == true)
    #expect(long?.contains(String(repeating: "x", count: 65)) == false)
  }

  @Test func attachmentIdentifiersFollowTheIdentifierRules() {
    var content = NotificationContent(title: "x")
    content.attachments = [Attachment(path: "/a.png"), Attachment(identifier: "bad\u{7}", path: "/b.png")]
    let control = rejection(request(content))
    #expect(control?.reason == "INVALID_IDENTIFIER" && control?.field == "request.content.attachments[1].identifier")
    content.attachments = [Attachment(identifier: String(repeating: "a", count: 257), path: "/a.png")]
    #expect(rejection(request(content))?.field == "request.content.attachments[0].identifier")
    content.attachments = [Attachment(identifier: "", path: "/a.png"), Attachment(identifier: "", path: "/b.png")]
    #expect(rejection(request(content)) == nil, "empty identifiers are generated by the daemon")
  }

  @Test func aVolumeIsOnlyForCriticalSounds() {
    var content = NotificationContent(title: "x")
    content.sound = Sound(kind: .named, name: "a.wav", volume: 0.5)
    #expect(rejection(request(content))?.reason == "INVALID_SOUND_VOLUME")
    content.sound = Sound(kind: .default, volume: 0.5)
    #expect(rejection(request(content))?.field == "request.content.sound.volume")
    content.sound = Sound(kind: .criticalNamed, name: "a.wav", volume: 0.5)
    #expect(rejection(request(content)) == nil)
  }
}
