import ChimeCore
import Testing

/// The policy's first decision, the user's changes, and what a record allows, as tables.
@Suite struct AuthorizationDecisionTests {
  @Test func allowGrantsWhatIsAskedAndProvisionalIsQuiet() {
    let asked: AuthorizationOptions = [.alert, .sound, .badge]
    let allowed = AuthorizationPolicy.allow.decide(asked, recorded: .none)
    #expect(allowed.status == .authorized)
    #expect(allowed.granted == asked)
    let provisional = AuthorizationPolicy.allow.decide(asked.union(.provisional), recorded: .none)
    #expect(provisional.status == .provisional)
    #expect(provisional.granted == asked)
    #expect(DeliveryPermissions(provisional, policy: .allow) == DeliveryPermissions(mayPost: true, effective: [.alert]))
  }

  @Test func askDeniesDeniesButKeepsWhatWasAskedForALaterAllow() {
    let denied = AuthorizationPolicy.askDenies.decide([.alert, .criticalAlert], recorded: .none)
    #expect(denied.status == .denied)
    #expect(!DeliveryPermissions(denied, policy: .askDenies).mayPost)
    let allowed = AppSettingsChange(appID: "org.example.a", status: .authorized).applied(to: denied)
    #expect(allowed.status == .authorized)
    #expect(allowed.granted == [.alert, .criticalAlert])
  }

  @Test func aSwitchTheUserMadeBeforeTheFirstRequestHolds() {
    let soundOff = AppSettingsChange(appID: "org.example.a", disable: [.sound]).applied(to: .none)
    let decided = AuthorizationPolicy.allow.decide([.alert, .sound], recorded: soundOff)
    #expect(decided.status == .authorized)
    #expect(decided.granted == [.alert])
  }

  @Test(arguments: AuthorizationPolicy.allCases) func laterRequestsReturnTheRecordUnchanged(_ policy: AuthorizationPolicy) {
    for status in [AuthorizationStatus.denied, .authorized, .provisional] {
      let recorded = AppAuthorization(status: status, granted: [.sound], badgeCount: 3)
      #expect(policy.decide([.alert, .badge, .criticalAlert], recorded: recorded) == recorded)
    }
  }

  struct PermissionCase: Sendable, CustomTestStringConvertible {
    var status: AuthorizationStatus
    var granted: AuthorizationOptions?
    var policy: AuthorizationPolicy
    var mayPost: Bool
    var effective: AuthorizationOptions
    var testDescription: String { "\(status.name) \(granted.map { "\($0.rawValue)" } ?? "nil") \(policy.rawValue)" }
  }

  static let permissionCases: [PermissionCase] = [
    PermissionCase(status: .notDetermined, granted: nil, policy: .allow, mayPost: true, effective: .userDefault),
    PermissionCase(status: .notDetermined, granted: nil, policy: .askDenies, mayPost: false, effective: []),
    PermissionCase(status: .notDetermined, granted: [.alert], policy: .allow, mayPost: true, effective: [.alert]),
    PermissionCase(status: .denied, granted: [.alert, .sound], policy: .allow, mayPost: false, effective: []),
    PermissionCase(status: .authorized, granted: [.alert, .criticalAlert], policy: .askDenies, mayPost: true, effective: [.alert, .criticalAlert]),
    PermissionCase(status: .authorized, granted: nil, policy: .allow, mayPost: true, effective: .userDefault),
    PermissionCase(status: .provisional, granted: [.alert, .sound, .badge, .criticalAlert], policy: .allow, mayPost: true, effective: [.alert]),
  ]

  @Test(arguments: permissionCases) func whatARecordAllows(_ c: PermissionCase) {
    let permissions = DeliveryPermissions(AppAuthorization(status: c.status, granted: c.granted), policy: c.policy)
    #expect(permissions.mayPost == c.mayPost)
    #expect(permissions.effective == c.effective)
    let refusal = permissions.refusal(app: "org.example.a", policy: c.policy, status: c.status)
    #expect((refusal == nil) == c.mayPost)
    if let refusal { #expect(refusal.reason == "NOTIFICATIONS_NOT_ALLOWED" && refusal.code == .permissionDenied) }
  }

  @Test func userSwitchesStartFromTheDefaultAndKeepTheBadgeCount() {
    let off = AppSettingsChange(appID: "org.example.a", disable: [.sound]).applied(to: AppAuthorization(badgeCount: 2))
    #expect(off.status == .notDetermined)
    #expect(off.granted == [.alert, .badge])
    #expect(off.badgeCount == 2)
    let on = AppSettingsChange(appID: "org.example.a", enable: [.criticalAlert]).applied(to: off)
    #expect(on.granted == [.alert, .badge, .criticalAlert])
    let read = AppSettingsChange(appID: "org.example.a").applied(to: .none)
    #expect(read == .none)
  }

  @Test func invalidChangesAreRefused() {
    let cases: [(AppSettingsChange, String)] = [
      (AppSettingsChange(appID: "", status: .authorized), "INVALID_APP_ID"),
      (AppSettingsChange(appID: "org.example.a", status: .provisional), "INVALID_APP_SETTINGS"),
      (AppSettingsChange(appID: "org.example.a", status: .notDetermined), "INVALID_APP_SETTINGS"),
      (AppSettingsChange(appID: "org.example.a", enable: [.sound], disable: [.sound]), "INVALID_APP_SETTINGS"),
      (AppSettingsChange(appID: "org.example.a", enable: [.provisional]), "INVALID_APP_SETTINGS"),
    ]
    for (change, reason) in cases {
      #expect(throws: ChimeError.self) { try change.validate() }
      do { try change.validate() } catch { #expect(error.reason == reason, "\(change)") }
    }
  }

  @Test func settingsReportWhatIsInEffect() {
    let s = NotificationSettings(AppAuthorization(status: .denied, granted: [.alert, .sound], badgeCount: 5), policy: .allow)
    #expect(s == NotificationSettings(status: .denied, badgeCount: 5))
    let a = NotificationSettings(AppAuthorization(status: .authorized, granted: [.alert, .timeSensitive]), policy: .allow)
    #expect(a.alert && a.timeSensitive && !a.sound && !a.badge)
  }
}
