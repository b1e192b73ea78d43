/// The user's answer to a delivered notification (UNNotificationResponse): it was opened
/// (`NotificationAction.defaultIdentifier`), dismissed (`dismissIdentifier`) or one of its
/// category's actions was chosen, with text for a text-input action.
public struct NotificationResponse: Hashable, Sendable {
  public var notificationIdentifier: String
  public var actionIdentifier: String
  /// What the user typed, for a text-input action; empty otherwise.
  public var userText: String
  /// When chimed accepted the response (set by chimed; ignored when sent).
  public var at: Instant
  /// With `NotificationAction.snoozeIdentifier`: the duration chosen, in seconds.
  public var snoozeSeconds: Int64 = 0

  public init(notificationIdentifier: String, actionIdentifier: String = NotificationAction.defaultIdentifier,
              userText: String = "", at: Instant = Instant(unixMillis: 0)) {
    self.notificationIdentifier = notificationIdentifier
    self.actionIdentifier = actionIdentifier
    self.userText = userText
    self.at = at
  }
}
