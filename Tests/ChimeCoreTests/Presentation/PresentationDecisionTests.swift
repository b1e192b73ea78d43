import ChimeCore
import Foundation
import Testing

@Suite struct PresentationDecisionTests {
  static func delivered(level: InterruptionLevel = .active, sound: Sound? = .default, plays: SoundResolution.Plays = .default,
                        path: String = "", downgraded: Bool = false) -> DeliveredNotification {
    var content = NotificationContent(title: "t")
    content.interruptionLevel = level
    content.sound = sound
    var resolution = SoundResolution(plays: plays)
    resolution.path = path
    resolution.criticalDowngraded = downgraded
    return DeliveredNotification(request: NotificationRequest(identifier: "x", content: content), delivered: Instant(unixMillis: 0),
                                 due: Instant(unixMillis: 0), sound: sound == nil ? nil : resolution)
  }

  @Test func noAlertPermissionIsNotShown() {
    #expect(PresentationDecision.decide(Self.delivered(), allowed: [.sound]).show == false)
    #expect(PresentationDecision.decide(Self.delivered(), allowed: [.alert]).show == true)
  }

  @Test func soundFollowsResolutionPermissionAndLevel() {
    let all: AuthorizationOptions = [.alert, .sound, .criticalAlert]
    #expect(PresentationDecision.decide(Self.delivered(), allowed: all).sound == .themeDefault(volume: nil))
    #expect(PresentationDecision.decide(Self.delivered(sound: .named("a.wav"), plays: .named, path: "/c/a.wav"), allowed: all).sound
      == .file(path: "/c/a.wav", volume: nil))
    #expect(PresentationDecision.decide(Self.delivered(level: .passive), allowed: all).sound == .silent, "passive: no sound")
    #expect(PresentationDecision.decide(Self.delivered(), allowed: [.alert]).sound == .silent, "no sound permission")
    #expect(PresentationDecision.decide(Self.delivered(sound: nil), allowed: all).sound == .silent)
    #expect(PresentationDecision.decide(Self.delivered(plays: .none), allowed: all).sound == .silent)
  }

  @Test func criticalSoundsPlayAtTheirVolume() {
    let all: AuthorizationOptions = [.alert, .sound, .criticalAlert]
    let critical = Sound(kind: .defaultCritical, volume: 0.25)
    #expect(PresentationDecision.decide(Self.delivered(sound: critical), allowed: all).sound == .themeDefault(volume: 0.25))
    #expect(PresentationDecision.decide(Self.delivered(sound: Sound(kind: .defaultCritical)), allowed: all).sound == .themeDefault(volume: 1))
    #expect(PresentationDecision.decide(Self.delivered(sound: critical, downgraded: true), allowed: all).sound == .themeDefault(volume: nil))
  }

  @Test func storedImageIsTheFirstVisibleImage() {
    var content = NotificationContent(title: "t")
    func attachment(_ cls: String, _ path: String, hidden: Bool = false) -> ChimeCore.Attachment {
      var info = AttachmentInfo()
      info.mediaClass = cls
      info.storePath = path
      var options = AttachmentOptions()
      options.thumbnailHidden = hidden
      return ChimeCore.Attachment(path: "/src", options: options, info: info)
    }
    content.attachments = [attachment("audio", "/s/a.wav"), attachment("image", "/s/hidden.png", hidden: true), attachment("image", "/s/b.png")]
    let delivered = DeliveredNotification(request: NotificationRequest(identifier: "x", content: content), delivered: Instant(unixMillis: 0),
                                          due: Instant(unixMillis: 0))
    #expect(ThumbnailChoice.storedImagePath(delivered) == "/s/b.png")
    #expect(ThumbnailChoice.storedImagePath(Self.delivered()) == nil)
  }
}

@Suite struct PresenterSelectionTests {
  @Test func defaultsFollowTheMachine() {
    #expect(PresenterSelection.choose(list: nil, command: nil, sessionBus: true) == .success([.freedesktop]))
    #expect(PresenterSelection.choose(list: nil, command: nil, sessionBus: false) == .success([]))
    #expect(PresenterSelection.choose(list: nil, command: "/bin/x", sessionBus: true) == .success([.freedesktop, .command]))
    #expect(PresenterSelection.choose(list: nil, command: "/bin/x", sessionBus: false) == .success([.command]))
  }

  @Test func aListIsTakenAsGiven() {
    #expect(PresenterSelection.choose(list: "freedesktop, command", command: "/bin/x", sessionBus: false) == .success([.freedesktop, .command]))
    #expect(PresenterSelection.choose(list: "none", command: "/bin/x", sessionBus: true) == .success([]))
    #expect(PresenterSelection.choose(list: "command,command", command: "/bin/x", sessionBus: true) == .success([.command]))
  }

  @Test(arguments: ["bogus", "none,command", "command", ""])
  func badListsAreRefused(_ list: String) {
    guard case .failure = PresenterSelection.choose(list: list, command: list == "none,command" ? "/bin/x" : nil, sessionBus: true) else {
      Issue.record("\(list) accepted")
      return
    }
  }
}

@Suite struct CommandPayloadTests {
  @Test func jsonCarriesTheNotificationAndUserInfo() throws {
    var content = NotificationContent(title: "Tea", subtitle: "Kitchen", body: "Ready")
    content.userInfoJSON = #"{"cup": 2}"#
    content.categoryIdentifier = "brew"
    let delivered = DeliveredNotification(request: NotificationRequest(identifier: "tea", content: content),
                                          delivered: Instant(unixMillis: 5_000), due: Instant(unixMillis: 5_000),
                                          category: DesktopNotificationPlanTests.category)
    let json = CommandPayload(delivered, app: .init(id: "org.example.tea"), sound: .file(path: "/s/a.wav", volume: nil)).json()
    #expect(json.hasSuffix("\n"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["app"] as? String == "org.example.tea")
    #expect(object["identifier"] as? String == "tea")
    #expect(object["title"] as? String == "Tea")
    #expect(object["body"] as? String == "Ready")
    #expect(object["urgency"] as? Int == 1)
    #expect(object["deliveredMillis"] as? Int == 5_000)
    #expect(object["soundFile"] as? String == "/s/a.wav")
    #expect((object["userInfo"] as? [String: Any])?["cup"] as? Int == 2)
    #expect((object["actions"] as? [[String: Any]])?.count == 3)
  }
}

@Suite struct AppDesktopFieldsTests {
  @Test func validDisplayNamesAndDesktopEntries() throws {
    try AppLayout.validateDesktop(displayName: "Tea Timer ☕", desktopEntry: "org.example.tea")
    try AppLayout.validateDesktop(displayName: "", desktopEntry: "")
  }

  @Test(arguments: [
    ("", "org/example", "INVALID_IDENTIFIER desktop_entry"),
    ("", "tea.desktop file", "INVALID_IDENTIFIER desktop_entry"),
    ("", String(repeating: "a", count: 256), "FIELD_TOO_LONG desktop_entry"),
    (String(repeating: "n", count: 257), "", "FIELD_TOO_LONG display_name"),
  ])
  func refused(_ name: String, _ entry: String, _ expected: String) {
    do {
      try AppLayout.validateDesktop(displayName: name, desktopEntry: entry)
      Issue.record("accepted \(entry)")
    } catch {
      #expect("\(error.reason) \(error.field)" == expected)
    }
  }
}
