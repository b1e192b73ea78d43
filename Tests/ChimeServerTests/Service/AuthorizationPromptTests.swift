import ChimeClient
import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeSystem
import ChimeTestSupport
import ChimeWire
import Testing

/// The policy `ask` through the whole daemon with a manual clock: the "Allow notifications?"
/// prompt is posted once, the waiting call gets the user's answer (the prompt's buttons,
/// `chime apps`), or not determined at its deadline; the later answer is an event.
@Suite(.testTimeLimit) struct AuthorizationPromptTests {
  static let tea = "org.example.tea"
  static var promptID: String { AuthorizationPrompt.identifier(for: tea) }

  static func askingDaemon() throws -> InProcessDaemon {
    try InProcessDaemon(tweak: { $0.policy.authorization = .ask })
  }

  /// Waits (on real time, a few ms at a time) until chimed shows `count` prompts.
  static func prompts(_ d: InProcessDaemon, count: Int) async throws -> [DeliveredNotification] {
    for _ in 0..<500 {
      let shown = d.daemon.ownDelivered()
      if shown.count == count { return shown }
      try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("expected \(count) prompts, chimed shows \(d.daemon.ownDelivered().count)")
    return d.daemon.ownDelivered()
  }

  static func click(_ d: InProcessDaemon, _ action: String) {
    d.daemon.respondFromDesktop(app: AuthorizationPrompt.appID,
                                NotificationResponse(notificationIdentifier: promptID, actionIdentifier: action))
  }

  @Test(arguments: Transport.allCases) func allowOnThePromptAnswersTheWaitingCall(over transport: Transport) async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea, over: transport)
    _ = try await app.registerApp(displayName: "Tea Timer")
    let asking = Task { try await app.requestAuthorization([.alert, .sound, .badge]) }
    let shown = try await Self.prompts(d, count: 1)
    #expect(shown.first?.request.identifier == Self.promptID)
    #expect(shown.first?.request.content.body == "Tea Timer would like to send you notifications: alerts, sounds, badges")
    #expect(shown.first?.category?.actions.map(\.identifier) == ["allow", "deny"])
    // Meanwhile the app is undecided and may not post.
    await expectRefused("NOTIFICATIONS_NOT_ALLOWED") { _ = try await app.add(.tea()) }

    Self.click(d, AuthorizationPrompt.allowAction)
    let answer = try await asking.value
    #expect(answer.granted && answer.settings.status == .authorized)
    #expect(answer.settings.alert && answer.settings.sound && answer.settings.badge)
    _ = try await Self.prompts(d, count: 0)
    _ = try await app.add(.tea())
  }

  @Test func dontAllowAnswersDenied() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let asking = Task { try await app.requestAuthorization([.alert]) }
    _ = try await Self.prompts(d, count: 1)
    Self.click(d, AuthorizationPrompt.denyAction)
    let answer = try await asking.value
    #expect(!answer.granted && answer.settings.status == .denied)
    // Later requests answer the decision without asking again.
    #expect(try await app.requestAuthorization([.alert]) == answer)
    #expect(d.daemon.ownDelivered().isEmpty)
  }

  @Test func atTheDeadlineTheCallAnswersNotDeterminedAndTheNextOneWaitsOnTheSamePrompt() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let first = Task { try await app.requestAuthorization([.alert, .sound]) }
    _ = try await Self.prompts(d, count: 1)
    d.advance(seconds: 21)
    let unanswered = try await first.value
    #expect(!unanswered.granted && unanswered.settings.status == .notDetermined)
    #expect(d.daemon.ownDelivered().count == 1)

    // Asked again with its own deadline (5 s): no second prompt, it waits again.
    let deadline = d.clock.now().adding(seconds: 5)
    let second = Task {
      try CallTable.requestAuthorization.decodeResponse(
        await app.call(.requestAuthorization, payload: CallTable.requestAuthorization.encodeRequest([.alert, .sound]), deadline: deadline))
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(d.daemon.ownDelivered().count == 1)
    d.advance(seconds: 6)
    #expect(try await second.value.settings.status == .notDetermined)
    #expect(d.daemon.ownDelivered().count == 1)
  }

  @Test func twoCallsAtOnceShowOnePromptAndBothGetTheAnswer() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let one = Task { try await app.requestAuthorization([.alert]) }
    let two = Task { try await app.requestAuthorization([.alert]) }
    _ = try await Self.prompts(d, count: 1)
    try await Task.sleep(for: .milliseconds(100))
    #expect(d.daemon.ownDelivered().count == 1)
    Self.click(d, AuthorizationPrompt.allowAction)
    #expect(try await one.value.granted)
    #expect(try await two.value.granted)
  }

  @Test func thePromptSurvivesARestartAndItsAnswerIsAnEvent() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let asking = Task { try await app.requestAuthorization([.alert, .badge]) }
    _ = try await Self.prompts(d, count: 1)
    try d.restart()
    // The call ended with the daemon that held it, unanswered.
    _ = try? await asking.value

    let after = try d.client(app: Self.tea)
    #expect(try await Self.prompts(d, count: 1).first?.request.identifier == Self.promptID)
    var events = after.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    Self.click(d, AuthorizationPrompt.allowAction)
    let changed = try await nextEvent(&events) { $0.kind == .authorizationChanged }
    #expect(changed.note == "authorized")
    #expect(try await after.settings().status == .authorized)
    #expect(try await after.settings().badge)
  }

  @Test(arguments: Transport.allCases) func noClientMayActAsChimesOwnApp(over transport: Transport) async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea, over: transport)
    let asking = Task { try await app.requestAuthorization([.alert]) }
    _ = try await Self.prompts(d, count: 1)
    let impostor = try d.client(app: AuthorizationPrompt.appID, over: transport)
    await expectRefused("RESERVED_APP_ID") { _ = try await impostor.respond(to: Self.promptID, action: "allow") }
    await expectRefused("RESERVED_APP_ID") { _ = try await impostor.allDelivered() }
    // Another app's response names its own notifications only.
    let other = try d.client(app: "org.example.other", over: transport)
    await expectRefused("NOTIFICATION_NOT_DELIVERED") { _ = try await other.respond(to: Self.promptID, action: "allow") }
    #expect(d.daemon.ownDelivered().count == 1)
    d.advance(seconds: 21)
    #expect(try await asking.value.settings.status == .notDetermined)
  }

  @Test func chimeAppsAllowAnswersTheWaitingCallAndTakesThePromptAway() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let user = try d.client(app: "chime.cli")
    var events = app.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let asking = Task { try await app.requestAuthorization([.alert, .sound]) }
    _ = try await Self.prompts(d, count: 1)
    let allowed = try await user.setAppSettings(AppSettingsChange(appID: Self.tea, status: .authorized))
    #expect(allowed.status == .authorized)
    let answer = try await asking.value
    #expect(answer.granted && answer.settings == allowed)
    #expect(try await nextEvent(&events) { $0.kind == .authorizationChanged }.note == "authorized")
    _ = try await Self.prompts(d, count: 0)
    // A change that leaves the status is no event; denying later is.
    _ = try await user.setAppSettings(AppSettingsChange(appID: Self.tea, disable: [.sound]))
    _ = try await user.setAppSettings(AppSettingsChange(appID: Self.tea, status: .denied))
    #expect(try await nextEvent(&events) { $0.kind == .authorizationChanged }.note == "denied")
  }

  @Test func provisionalIsGrantedWithoutAPrompt() async throws {
    let d = try Self.askingDaemon()
    let app = try d.client(app: Self.tea)
    let result = try await app.requestAuthorization([.alert, .provisional])
    #expect(result.granted && result.settings.status == .provisional)
    #expect(d.daemon.ownDelivered().isEmpty)
  }

  func expectRefused(_ reason: String, _ body: () async throws -> Void) async {
    do {
      try await body()
      Issue.record("expected \(reason)")
    } catch let error as ChimeError {
      #expect(error.reason == reason, "\(error)")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
