import ChimeCore

/// The loop's copy of every app's authorization and badge as committed, under the daemon's
/// policy: read once at start-up, then kept in step after each commit that changes them (only
/// the service writes them). Loop thread only.
final class AuthorizationBook {
  /// `chimed --authorization`.
  let policy: AuthorizationPolicy
  private var records: [String: AppAuthorization]

  init(policy: AuthorizationPolicy, records: [String: AppAuthorization]) {
    self.policy = policy
    self.records = records
  }

  /// `app`'s record as committed (`.none` when nothing is recorded).
  func authorization(of app: String) -> AppAuthorization {
    records[app] ?? .none
  }

  /// Every app with a record (it asked, or the user changed its settings), unordered.
  var recordedApps: [String] { Array(records.keys) }

  /// What `app` may do now. Chime's own app (its "Allow notifications?" prompts) may always
  /// show alerts with sound, whatever the policy: no client can act as it.
  func permissions(of app: String) -> DeliveryPermissions {
    guard app != AuthorizationPrompt.appID else { return DeliveryPermissions(mayPost: true, effective: [.alert, .sound, .timeSensitive]) }
    return DeliveryPermissions(authorization(of: app), policy: policy)
  }

  /// `app`'s status, effective settings and badge count.
  func settings(of app: String) -> NotificationSettings {
    NotificationSettings(authorization(of: app), policy: policy)
  }

  /// Why `app` may not post now, or nil.
  func refusal(app: String) -> ChimeError? {
    permissions(of: app).refusal(app: app, policy: policy, status: authorization(of: app).status)
  }

  /// A committed authorization record.
  func recorded(_ stored: AppAuthorization, app: String) {
    records[app] = stored
  }

  /// A committed badge change.
  func badgeChanged(app: String, count: Int) {
    records[app, default: .none].badgeCount = count
  }
}
