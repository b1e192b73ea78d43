import ChimeCore
import Testing

/// The policy `ask` and its prompt: what stays undecided, what the prompt says, what answers it
/// and who may act as Chime's own app.
@Suite struct AuthorizationPromptTests {
  @Test func askLeavesTheAppUndecidedWithWhatItAskedRecorded() {
    let asked: AuthorizationOptions = [.alert, .sound, .badge]
    let decided = AuthorizationPolicy.ask.decide(asked, recorded: .none)
    #expect(decided.status == .notDetermined)
    #expect(decided.granted == asked)
    #expect(AuthorizationPolicy.ask.asksUser(asked))
    // The README's rule for undecided apps: it may not post, as under ask-denies.
    let permissions = DeliveryPermissions(decided, policy: .ask)
    #expect(!permissions.mayPost && permissions.effective.isEmpty)
    let refusal = permissions.refusal(app: "org.example.tea", policy: .ask, status: .notDetermined)
    #expect(refusal?.reason == "NOTIFICATIONS_NOT_ALLOWED")
    #expect(refusal?.message.contains("asks the user") == true)
    #expect(NotificationSettings(.none, policy: .ask) == NotificationSettings(status: .notDetermined))
  }

  @Test func askingAgainWhileUndecidedKeepsTheFirstRequest() {
    let first = AuthorizationPolicy.ask.decide([.alert, .sound], recorded: .none)
    #expect(AuthorizationPolicy.ask.decide([.badge], recorded: first) == first)
  }

  @Test func provisionalIsGrantedQuietlyWithoutAsking() {
    let decided = AuthorizationPolicy.ask.decide([.alert, .sound, .provisional], recorded: .none)
    #expect(decided.status == .provisional)
    #expect(!AuthorizationPolicy.ask.asksUser([.alert, .provisional]))
    #expect(!AuthorizationPolicy.allow.asksUser([.alert]) && !AuthorizationPolicy.askDenies.asksUser([.alert]))
  }

  @Test func allowingAnAnsweredPromptGrantsWhatWasAsked() {
    let waiting = AuthorizationPolicy.ask.decide([.alert, .criticalAlert], recorded: .none)
    let allowed = AppSettingsChange(appID: "org.example.tea", status: .authorized).applied(to: waiting)
    #expect(allowed.status == .authorized && allowed.granted == [.alert, .criticalAlert])
    // Asked for nothing: allowing grants the user's default.
    let empty = AuthorizationPolicy.ask.decide([], recorded: .none)
    #expect(AppSettingsChange(appID: "a.b", status: .authorized).applied(to: empty).granted == AuthorizationOptions.userDefault)
  }

  @Test func thePromptNamesTheAppAndWhatItAsks() {
    let content = AuthorizationPrompt.content(displayName: "Tea Timer", options: [.badge, .alert, .sound])
    #expect(content.title == "Allow notifications?")
    #expect(content.body == "Tea Timer would like to send you notifications: alerts, sounds, badges")
    #expect(content.categoryIdentifier == AuthorizationPrompt.categoryIdentifier)
    let critical = AuthorizationPrompt.content(displayName: "Alarm", options: [.criticalAlert, .timeSensitive, .providesAppNotificationSettings])
    #expect(critical.body == "Alarm would like to send you notifications: critical alerts, time-sensitive notifications")
    #expect(AuthorizationPrompt.content(displayName: "Tea", options: []).body == "Tea would like to send you notifications")
    let request = AuthorizationPrompt.request(app: "org.example.tea", displayName: "Tea Timer", options: [.alert])
    #expect(request.identifier == "authorization.org.example.tea")
    #expect(request.trigger == nil)
  }

  @Test func theCategoryOffersAllowAndDontAllow() {
    let category = AuthorizationPrompt.category
    #expect(category.actions.map(\.identifier) == ["allow", "deny"])
    #expect(category.actions.map(\.title) == ["Allow", "Don't Allow"])
    #expect(category.options.contains(.customDismissAction))
  }

  @Test func onlyAllowAndDontAllowOnAPromptAreAnswers() {
    let id = AuthorizationPrompt.identifier(for: "org.example.tea")
    let allow = AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: id, actionIdentifier: "allow"))
    #expect(allow?.app == "org.example.tea" && allow?.status == .authorized)
    let deny = AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: id, actionIdentifier: "deny"))
    #expect(deny?.app == "org.example.tea" && deny?.status == .denied)
    #expect(AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: id)) == nil)
    #expect(AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: id, actionIdentifier: NotificationAction.dismissIdentifier)) == nil)
    #expect(AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: "tea", actionIdentifier: "allow")) == nil)
    #expect(AuthorizationPrompt.answer(to: NotificationResponse(notificationIdentifier: "authorization.", actionIdentifier: "allow")) == nil)
  }

  @Test func noClientMayActAsChimesOwnApp() throws {
    #expect(throws: ChimeError.self) { try AuthorizationPrompt.checkCaller(declared: "io.github.chime") }
    do {
      try AuthorizationPrompt.checkCaller(declared: AuthorizationPrompt.appID)
    } catch {
      #expect(error.reason == "RESERVED_APP_ID" && error.code == .permissionDenied && error.field == "app_id")
    }
    try AuthorizationPrompt.checkCaller(declared: "org.example.tea")
    try AuthorizationPrompt.checkCaller(declared: "io.github.chime.calendar.work")
  }
}
