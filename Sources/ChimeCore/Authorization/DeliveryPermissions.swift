/// What an app may do now, from its record and the daemon's policy: whether it may post at all
/// and which permissions are in effect. Pure.
public struct DeliveryPermissions: Hashable, Sendable {
  /// False when `Add` is refused (NOTIFICATIONS_NOT_ALLOWED).
  public var mayPost: Bool
  /// The permissions in effect (empty when the app may not post).
  public var effective: AuthorizationOptions

  public init(mayPost: Bool, effective: AuthorizationOptions) {
    self.mayPost = mayPost
    self.effective = effective
  }

  /// Denied: nothing. Not determined: `userDefault` under `allow` (apps that never asked keep
  /// posting as before authorization existed), nothing under `askDenies` and `ask` (the README's
  /// rule for undecided apps). Authorized: what was
  /// granted. Provisional: quiet, so no sound, badge or critical alert.
  public init(_ recorded: AppAuthorization, policy: AuthorizationPolicy) {
    let granted = recorded.granted ?? AuthorizationOptions.userDefault
    switch recorded.status {
    case .denied:
      self.init(mayPost: false, effective: [])
    case .notDetermined:
      self = policy == .allow ? DeliveryPermissions(mayPost: true, effective: granted) : DeliveryPermissions(mayPost: false, effective: [])
    case .authorized:
      self.init(mayPost: true, effective: granted)
    case .provisional:
      self.init(mayPost: true, effective: granted.subtracting([.sound, .badge, .criticalAlert]))
    }
  }

  /// Why `Add` is refused, or nil when the app may post.
  public func refusal(app: String, policy: AuthorizationPolicy, status: AuthorizationStatus) -> ChimeError? {
    guard !mayPost else { return nil }
    let why = status == .denied
      ? "notifications are denied for \(app)"
      : policy == .ask
        ? "\(app) has not been allowed notifications yet: its RequestAuthorization asks the user (chimed runs with --authorization ask)"
        : "\(app) has not been allowed notifications (chimed runs with --authorization \(policy.rawValue))"
    return ChimeError(.notificationsNotAllowed, why + "; the user can allow it with `chime apps allow \(app)`")
  }
}
