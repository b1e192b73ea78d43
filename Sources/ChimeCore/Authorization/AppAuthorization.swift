/// What is recorded for one app: its authorization status and the permissions granted (kept
/// while it is denied, so allowing it again restores them), and its badge count.
public struct AppAuthorization: Hashable, Sendable {
  public var status: AuthorizationStatus
  /// nil until the app asked or the user set something: then `AuthorizationOptions.userDefault`
  /// applies where the app may post.
  public var granted: AuthorizationOptions?
  public var badgeCount: Int

  public init(status: AuthorizationStatus = .notDetermined, granted: AuthorizationOptions? = nil, badgeCount: Int = 0) {
    self.status = status
    self.granted = granted
    self.badgeCount = badgeCount
  }

  /// An app with nothing recorded.
  public static let none = AppAuthorization()
}
