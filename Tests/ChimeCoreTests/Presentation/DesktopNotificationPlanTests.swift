import ChimeCore
import Foundation
import Testing

@Suite struct DesktopNotificationPlanTests {
  static func delivered(_ content: NotificationContent = NotificationContent(title: "Tea", subtitle: "Kitchen", body: "Ready"),
                        category: NotificationCategory? = nil) -> DeliveredNotification {
    DeliveredNotification(request: NotificationRequest(identifier: "tea", content: content),
                          delivered: Instant(unixMillis: 1_000), due: Instant(unixMillis: 1_000), category: category)
  }

  static let category = NotificationCategory(identifier: "brew", actions: [
    NotificationAction(identifier: "again", title: "Again"),
    NotificationAction(identifier: "reply", title: "Reply", textInput: .init(buttonTitle: "Send")),
    NotificationAction(identifier: "default", title: "Named default"),
  ])

  static let all: Set<String> = ["body", "body-markup", "actions", "sound"]

  @Test(arguments: [
    (InterruptionLevel.passive, UInt8(0)), (.active, 1), (.timeSensitive, 2), (.critical, 2),
  ])
  func urgencyFollowsTheInterruptionLevel(_ level: InterruptionLevel, _ urgency: UInt8) {
    #expect(DesktopNotificationPlan.urgency(level) == urgency)
    var content = NotificationContent(title: "t")
    content.interruptionLevel = level
    let plan = DesktopNotificationPlan.make(Self.delivered(content), app: .init(id: "a"), capabilities: [], thumbnailPath: nil, sound: .silent)
    #expect(plan.hint("urgency") == .byte(urgency))
  }

  @Test func bodyIsEscapedOnlyForMarkupServers() {
    #expect(DesktopNotificationPlan.body(title: "a<b>", text: "x & 'y' \"z\"", markup: true)
      == "<b>a&lt;b&gt;</b>\nx &amp; &apos;y&apos; &quot;z&quot;")
    #expect(DesktopNotificationPlan.body(title: "a<b>", text: "x & y", markup: false) == "a<b>\nx & y")
    #expect(DesktopNotificationPlan.body(title: "", text: "only", markup: true) == "only")
    #expect(DesktopNotificationPlan.body(title: "sub", text: "", markup: false) == "sub")
  }

  @Test func summaryAppNameAndBody() {
    let plan = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "org.example.tea", displayName: "Tea Timer"),
                                            capabilities: Self.all, thumbnailPath: nil, sound: .silent)
    #expect(plan.appName == "Tea Timer")
    #expect(plan.summary == "Tea")
    #expect(plan.body == "<b>Kitchen</b>\nReady")
    #expect(plan.replacesID == 0)
    #expect(plan.expireTimeout == -1)
    let bare = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "org.example.tea"), capabilities: [], thumbnailPath: nil,
                                            sound: .silent, replacesID: 7)
    #expect(bare.appName == "org.example.tea")
    #expect(bare.replacesID == 7)
  }

  @Test func actionsListTheDefaultFirstAndSkipTextInput() {
    let actions = DesktopNotificationPlan.actions(Self.category)
    #expect(actions == ["default", "Open", "again", "Again", "chime-action:default", "Named default"])
    #expect(DesktopNotificationPlan.actions(nil) == ["default", "Open"])
    let plan = DesktopNotificationPlan.make(Self.delivered(category: Self.category), app: .init(id: "a"), capabilities: ["body"],
                                            thumbnailPath: nil, sound: .silent)
    #expect(plan.actions.isEmpty, "a server without `actions` gets none")
  }

  @Test func actionKeysMapBackToIdentifiers() {
    #expect(DesktopNotificationPlan.actionIdentifier(forKey: "default") == NotificationAction.defaultIdentifier)
    for identifier in ["again", "default", "chime-action:x", "a:b"] {
      #expect(DesktopNotificationPlan.actionIdentifier(forKey: DesktopNotificationPlan.actionKey(identifier)) == identifier)
    }
  }

  @Test func dismissOnlyWhenTheUserClosedACustomDismissCategory() {
    let custom = NotificationCategory(identifier: "c", options: [.customDismissAction])
    #expect(DesktopNotificationPlan.dismissResponse(reason: 2, category: custom) == NotificationAction.dismissIdentifier)
    #expect(DesktopNotificationPlan.dismissResponse(reason: 1, category: custom) == nil, "expired")
    #expect(DesktopNotificationPlan.dismissResponse(reason: 3, category: custom) == nil, "closed by a call")
    #expect(DesktopNotificationPlan.dismissResponse(reason: 2, category: NotificationCategory(identifier: "c")) == nil)
    #expect(DesktopNotificationPlan.dismissResponse(reason: 2, category: nil) == nil)
  }

  @Test func hintsCarryCategoryEntryImageAndThread() {
    var content = NotificationContent(title: "t")
    content.categoryIdentifier = "brew"
    content.threadIdentifier = "kitchen"
    let plan = DesktopNotificationPlan.make(Self.delivered(content), app: .init(id: "a", desktopEntry: "org.example.tea"),
                                            capabilities: Self.all, thumbnailPath: "/store/a.png", sound: .silent)
    #expect(plan.hint("category") == .string("brew"))
    #expect(plan.hint("desktop-entry") == .string("org.example.tea"))
    #expect(plan.hint("image-path") == .string("/store/a.png"))
    #expect(plan.hint("x-chime-thread-id") == .string("kitchen"))
    let none = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "a"), capabilities: Self.all, thumbnailPath: nil, sound: .silent)
    #expect(none.hint("category") == nil && none.hint("desktop-entry") == nil && none.hint("image-path") == nil)
  }

  @Test func theServerPlaysWhenItCanElseChimeDoes() {
    let file = SoundChoice.file(path: "/s/ding.wav", volume: nil)
    let withSound = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "a"), capabilities: Self.all, thumbnailPath: nil, sound: file)
    #expect(withSound.hint("sound-file") == .string("/s/ding.wav"))
    #expect(withSound.hint("suppress-sound") == nil)
    #expect(withSound.chimePlays == .silent)
    let themed = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "a"), capabilities: Self.all, thumbnailPath: nil,
                                              sound: .themeDefault(volume: nil))
    #expect(themed.hint("sound-name") == .string("message-new-instant"))
    let silent = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "a"), capabilities: Self.all, thumbnailPath: nil, sound: .silent)
    #expect(silent.hint("suppress-sound") == .boolean(true))
    let noSound = DesktopNotificationPlan.make(Self.delivered(), app: .init(id: "a"), capabilities: ["body"], thumbnailPath: nil, sound: file)
    #expect(noSound.hint("suppress-sound") == .boolean(true))
    #expect(noSound.hint("sound-file") == nil)
    #expect(noSound.chimePlays == file)
  }
}

/// A ringing alarm on the desktop: critical, resident where the server keeps notifications,
/// never expiring, its sound played by Chime (which repeats it), not by the server.
@Suite struct DesktopNotificationPlanRingTests {
  @Test(arguments: [Set(["body", "actions", "sound", "persistence"]), Set(["body", "actions"])])
  func aRingingPlanIsCriticalResidentWhereSupportedAndChimePlaysItsSound(_ capabilities: Set<String>) {
    var content = NotificationContent(title: "Wake up")
    content.interruptionLevel = .active
    content.ring = Ring(seconds: 60)
    let delivered = DesktopNotificationPlanTests.delivered(content)
    let sound = SoundChoice.file(path: "/tmp/bell.wav", volume: nil)
    let plan = DesktopNotificationPlan.make(delivered, app: .init(id: "a"), capabilities: capabilities, thumbnailPath: nil, sound: sound,
                                            rings: true)
    #expect(plan.hint("urgency") == .byte(2))
    #expect(plan.hint("resident") == (capabilities.contains("persistence") ? .boolean(true) : nil))
    #expect(plan.hint("suppress-sound") == .boolean(true))
    #expect(plan.hint("sound-file") == nil)
    #expect(plan.hints.filter { $0.key == "urgency" }.count == 1)
    #expect(plan.expireTimeout == 0)
    #expect(plan.chimePlays == sound)
    // Not ringing: as before (the server plays the sound it can play, once).
    let once = DesktopNotificationPlan.make(delivered, app: .init(id: "a"), capabilities: capabilities, thumbnailPath: nil, sound: sound)
    #expect(once.hint("urgency") == .byte(1))
    #expect(once.hint("resident") == nil)
    #expect(once.expireTimeout == -1)
  }
}
