/// What `RequestAuthorization` answers: whether the app may post, and its settings.
public struct AuthorizationResult: Hashable, Sendable {
  public var granted: Bool
  public var settings: NotificationSettings

  public init(granted: Bool, settings: NotificationSettings) {
    self.granted = granted
    self.settings = settings
  }
}
