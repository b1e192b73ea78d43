import ChimeConfig
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Testing

/// Authorization, settings and badge through the whole daemon with a manual clock.
@Suite(.testTimeLimit) struct AuthorizationTests {
  func expectRefused(_ reason: String, code: StatusCode, _ body: () async throws -> Void) async {
    do {
      try await body()
      Issue.record("expected \(reason)")
    } catch let error as ChimeError {
      #expect(error.reason == reason && error.code == code, "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  static func withBadge(_ id: String, _ badge: Int64?, in seconds: Double? = 10) -> NotificationRequest {
    var request = NotificationRequest.tea(id, in: seconds)
    request.content.badge = badge
    return request
  }

  @Test(arguments: Transport.allCases) func firstRequestRecordsTheDecisionAndLaterOnesReturnItUnchanged(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea", over: transport)
    #expect(try await app.settings().status == .notDetermined)

    let first = try await app.requestAuthorization([.alert, .sound])
    #expect(first.granted)
    #expect(first.settings.status == .authorized)
    #expect(first.settings.alert && first.settings.sound && !first.settings.badge && !first.settings.criticalAlert)

    let later = try await app.requestAuthorization([.alert, .sound, .badge, .criticalAlert])
    #expect(later == first)
    #expect(try await app.settings() == first.settings)
  }

  @Test(arguments: Transport.allCases) func provisionalIsQuiet(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.news", over: transport)
    let result = try await app.requestAuthorization([.alert, .sound, .badge, .provisional])
    #expect(result.granted)
    #expect(result.settings.status == .provisional)
    #expect(result.settings.alert && !result.settings.sound && !result.settings.badge)
    var request = Self.withBadge("n", 2, in: nil)
    request.content.sound = .default
    let delivered = try await app.add(request).delivered
    #expect(delivered?.sound?.plays == SoundResolution.Plays.none)
    #expect(try await app.settings().badgeCount == 0)
  }

  @Test(arguments: Transport.allCases) func askDeniesRefusesUntilTheUserAllows(over transport: Transport) async throws {
    let d = try InProcessDaemon(tweak: { $0.policy.authorization = .askDenies })
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)

    await expectRefused("NOTIFICATIONS_NOT_ALLOWED", code: .permissionDenied) { _ = try await app.add(.tea()) }
    let first = try await app.requestAuthorization([.alert, .badge])
    #expect(!first.granted)
    #expect(first.settings.status == .denied)
    #expect(try await app.requestAuthorization([.alert]) == first)
    await expectRefused("NOTIFICATIONS_NOT_ALLOWED", code: .permissionDenied) { _ = try await app.add(.tea()) }
    #expect(try await app.allPending().isEmpty)

    let allowed = try await user.setAppSettings(AppSettingsChange(appID: "org.example.tea", status: .authorized))
    #expect(allowed.status == .authorized && allowed.alert && allowed.badge && !allowed.sound)
    _ = try await app.add(.tea())
    #expect(try await app.allPending().count == 1)
    // Later requests still return the user's decision.
    #expect(try await app.requestAuthorization([.sound]).settings == allowed)
  }

  @Test(arguments: Transport.allCases) func aDeniedAppsAddIsRefused(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.spam", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    _ = try await app.requestAuthorization([.alert])
    let denied = try await user.setAppSettings(AppSettingsChange(appID: "org.example.spam", status: .denied))
    #expect(denied.status == .denied && !denied.alert)
    await expectRefused("NOTIFICATIONS_NOT_ALLOWED", code: .permissionDenied) { _ = try await app.add(.tea(in: nil)) }
    #expect(try await app.requestAuthorization([.alert]).granted == false)
    await expectRefused("INVALID_APP_SETTINGS", code: .invalidArgument) {
      _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.spam", status: .provisional))
    }
  }

  @Test(arguments: Transport.allCases) func soundOffDeliversWithoutSoundWithANote(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = NotificationRequest.tea("t", in: 10)
    request.content.sound = .default
    let added = try await app.add(request)
    #expect(added.pending.sound?.plays == .default)

    let off = try await user.setAppSettings(AppSettingsChange(appID: "org.example.tea", disable: [.sound]))
    #expect(!off.sound && off.alert && off.badge)
    d.advance(seconds: 10)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.delivered?.sound?.plays == SoundResolution.Plays.none)
    #expect(delivered.note.contains(DeliveryShape.soundOffNote), "\(delivered.note)")
  }

  @Test(arguments: Transport.allCases) func badgeSetAndClearedAtDeliveryAndBySetBadgeCountWithEvents(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea", over: transport)
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }

    _ = try await app.add(Self.withBadge("five", 5))
    _ = try await app.add(Self.withBadge("none", nil, in: 20))
    _ = try await app.add(Self.withBadge("clear", 0, in: 30))
    d.advance(seconds: 10)
    let five = try await nextEvent(&events) { $0.kind == .badgeChanged }
    #expect(five.badgeCount == 5 && five.identifiers == ["five"])
    #expect(try await app.settings().badgeCount == 5)
    d.advance(seconds: 10)
    _ = try await nextEvent(&events) { $0.kind == .delivered && $0.identifiers == ["none"] }
    #expect(try await app.settings().badgeCount == 5)
    d.advance(seconds: 10)
    let cleared = try await nextEvent(&events) { $0.kind == .badgeChanged }
    #expect(cleared.badgeCount == 0 && cleared.identifiers == ["clear"])

    try await app.setBadgeCount(7)
    let seven = try await nextEvent(&events) { $0.kind == .badgeChanged }
    #expect(seven.badgeCount == 7 && seven.identifiers.isEmpty)
    #expect(try await app.settings().badgeCount == 7)
    // Delivered at once with a badge: set in the same commit.
    _ = try await app.add(Self.withBadge("now", 2, in: nil))
    #expect(try await nextEvent(&events) { $0.kind == .badgeChanged }.badgeCount == 2)

    await expectRefused("BADGE_INPUT_INVALID", code: .invalidArgument) { try await app.setBadgeCount(-1) }
    #expect(try await app.settings().badgeCount == 2)
  }

  @Test(arguments: Transport.allCases) func badgeOffLeavesTheBadgeUnchanged(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    try await app.setBadgeCount(1)
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.tea", disable: [.badge]))
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await app.add(Self.withBadge("b", 9))
    d.advance(seconds: 10)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.note.contains(DeliveryShape.badgeOffNote), "\(delivered.note)")
    #expect(try await app.settings().badgeCount == 1)
    await expectRefused("BADGE_NOT_ALLOWED", code: .permissionDenied) { try await app.setBadgeCount(3) }
    #expect(try await app.settings().badgeCount == 1)
  }

  @Test(arguments: Transport.allCases) func criticalSoundsStayCriticalOnlyWithCriticalAlert(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let plain = try d.client(app: "org.example.plain", over: transport)
    let alarm = try d.client(app: "org.example.alarm", over: transport)
    _ = try await alarm.requestAuthorization([.alert, .sound, .criticalAlert])
    var request = NotificationRequest.tea("c", in: nil)
    request.content.sound = Sound(kind: .defaultCritical, volume: 0.5)
    let downgraded = try await plain.add(request).delivered?.sound
    #expect(downgraded?.criticalDowngraded == true)
    let critical = try await alarm.add(request).delivered?.sound
    #expect(critical?.criticalDowngraded == false)
    #expect(critical?.plays == .default)
    #expect(critical?.message.contains("critical") == false)
  }

  @Test(arguments: Transport.allCases) func theCriticalRuleFollowsThePermissionAtDelivery(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.alarm", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    var request = NotificationRequest.tea("wake", in: 10)
    request.content.sound = Sound(kind: .defaultCritical, volume: 1)
    #expect(try await app.add(request).pending.sound?.criticalDowngraded == true)

    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.alarm", enable: [.criticalAlert]))
    d.advance(seconds: 10)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.delivered?.sound?.criticalDowngraded == false)
    #expect(delivered.delivered?.sound?.plays == .default)
    #expect(delivered.note.isEmpty, "\(delivered.note)")
  }

  @Test(arguments: Transport.allCases) func timeSensitiveNeedsItsPermission(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let plain = try d.client(app: "org.example.plain", over: transport)
    let urgent = try d.client(app: "org.example.urgent", over: transport)
    _ = try await urgent.requestAuthorization([.alert, .timeSensitive])
    var request = NotificationRequest.tea("u", in: nil)
    request.content.interruptionLevel = .timeSensitive
    #expect(try await plain.add(request).delivered?.request.content.interruptionLevel == .active)
    #expect(try await urgent.add(request).delivered?.request.content.interruptionLevel == .timeSensitive)

    var events = plain.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    request.trigger = .timeInterval(TimeIntervalTrigger(seconds: 10))
    _ = try await plain.add(request)
    d.advance(seconds: 10)
    let delivered = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(delivered.delivered?.request.content.interruptionLevel == .active)
    #expect(delivered.note.contains(DeliveryShape.levelNote(.timeSensitive)), "\(delivered.note)")
  }

  @Test(arguments: Transport.allCases) func userChangesNameTheirAppAndAreChecked(over transport: Transport) async throws {
    let d = try InProcessDaemon()
    let caller = try d.client(app: "org.example.caller", over: transport)
    let changed = try await caller.setAppSettings(AppSettingsChange(appID: "org.example.target", disable: [.badge]))
    #expect(!changed.badge && changed.sound)
    #expect(try await caller.settings().badge)
    #expect(try await d.client(app: "org.example.target", over: transport).settings() == changed)
    await expectRefused("INVALID_APP_ID", code: .invalidArgument) {
      _ = try await caller.setAppSettings(AppSettingsChange(appID: "not an app id", status: .denied))
    }
    await expectRefused("INVALID_APP_SETTINGS", code: .invalidArgument) {
      _ = try await caller.setAppSettings(AppSettingsChange(appID: "org.example.target", enable: [.sound], disable: [.sound]))
    }
    // The daemon checks too, whatever a client sends.
    for (change, reason) in [(AppSettingsChange(appID: "not an app id", status: .denied), "INVALID_APP_ID"),
                             (AppSettingsChange(appID: "org.example.target", status: .provisional), "INVALID_APP_SETTINGS")] {
      let payload = try WireCodec.encodeAppSettingsRequest(change)
      await expectRefused(reason, code: .invalidArgument) { _ = try await caller.call(.setAppSettings, payload: payload) }
    }
    #expect(try await caller.setAppSettings(AppSettingsChange(appID: "org.example.target")) == changed)
  }

  @Test func decisionsAndBadgeSurviveARestart() async throws {
    let d = try InProcessDaemon()
    let app = try d.client(app: "org.example.tea")
    let user = try d.client(app: "chime.cli")
    _ = try await app.requestAuthorization([.alert, .sound, .badge])
    try await app.setBadgeCount(4)
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.tea", disable: [.sound]))
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.spam", status: .denied))
    let before = try await app.settings()

    try d.restart()
    let again = try d.client(app: "org.example.tea")
    #expect(try await again.settings() == before)
    #expect(before.status == .authorized && !before.sound && before.badge && before.badgeCount == 4)
    #expect(try await again.requestAuthorization([.criticalAlert]).settings == before)
    let spam = try d.client(app: "org.example.spam")
    await expectRefused("NOTIFICATIONS_NOT_ALLOWED", code: .permissionDenied) { _ = try await spam.add(.tea()) }
  }

  @Test(arguments: Transport.allCases) func appsAreIsolated(over transport: Transport) async throws {
    let d = try InProcessDaemon(tweak: { $0.policy.authorization = .askDenies })
    let a = try d.client(app: "org.example.a", over: transport)
    let b = try d.client(app: "org.example.b", over: transport)
    let user = try d.client(app: "chime.cli", over: transport)
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.a", status: .authorized))
    try await a.setBadgeCount(3)
    var bEvents = b.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&bEvents) { $0.kind == .subscribed }

    #expect(try await b.settings() == NotificationSettings(status: .notDetermined))
    #expect(try await b.requestAuthorization([.alert, .badge]).settings.status == .denied)
    #expect(try await a.settings().status == .authorized)
    #expect(try await a.settings().badgeCount == 3)
    _ = try await a.add(.tea())
    await expectRefused("NOTIFICATIONS_NOT_ALLOWED", code: .permissionDenied) { _ = try await b.add(.tea()) }
    try await a.setBadgeCount(0)
    // b sees none of a's badge events: the next events it gets are its own (being allowed,
    // then its badge).
    _ = try await user.setAppSettings(AppSettingsChange(appID: "org.example.b", status: .authorized))
    try await b.setBadgeCount(8)
    let allowed = try await nextEvent(&bEvents) { _ in true }
    #expect(allowed.kind == .authorizationChanged && allowed.note == "authorized")
    let own = try await nextEvent(&bEvents) { _ in true }
    #expect(own.kind == .badgeChanged && own.badgeCount == 8)
  }
}
