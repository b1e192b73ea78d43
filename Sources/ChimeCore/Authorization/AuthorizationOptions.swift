/// What an app asks for when it requests authorization (UNAuthorizationOptions), and what the
/// user granted: the same set of permissions.
public struct AuthorizationOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// May change the app's badge count.
  public static let badge = AuthorizationOptions(rawValue: 1 << 0)
  /// May play sounds.
  public static let sound = AuthorizationOptions(rawValue: 1 << 1)
  /// May show alerts.
  public static let alert = AuthorizationOptions(rawValue: 1 << 2)
  /// May show in CarPlay (recorded; no effect on Linux).
  public static let carPlay = AuthorizationOptions(rawValue: 1 << 3)
  /// Critical sounds stay critical.
  public static let criticalAlert = AuthorizationOptions(rawValue: 1 << 4)
  /// The app has its own notification settings screen (recorded).
  public static let providesAppNotificationSettings = AuthorizationOptions(rawValue: 1 << 5)
  /// Quiet delivery without asking: no sound, no badge.
  public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
  /// May be announced (recorded; no effect yet).
  public static let announcement = AuthorizationOptions(rawValue: 1 << 7)
  /// May deliver time-sensitive notifications (recorded).
  public static let timeSensitive = AuthorizationOptions(rawValue: 1 << 8)

  /// What the user grants an app that never asked when they allow it: alert, sound and badge.
  public static let userDefault: AuthorizationOptions = [.alert, .sound, .badge]
}
