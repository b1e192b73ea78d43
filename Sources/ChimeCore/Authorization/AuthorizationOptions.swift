/// What an app asks for when it requests authorization (UNAuthorizationOptions), and what the
/// user granted: the same set of permissions.
public struct AuthorizationOptions: OptionSet, Hashable, Sendable, Codable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  public static let badge = AuthorizationOptions(rawValue: 1 << 0)
  public static let sound = AuthorizationOptions(rawValue: 1 << 1)
  public static let alert = AuthorizationOptions(rawValue: 1 << 2)
  public static let carPlay = AuthorizationOptions(rawValue: 1 << 3)
  public static let criticalAlert = AuthorizationOptions(rawValue: 1 << 4)
  public static let providesAppNotificationSettings = AuthorizationOptions(rawValue: 1 << 5)
  /// Quiet delivery without asking: no sound, no badge.
  public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
  public static let announcement = AuthorizationOptions(rawValue: 1 << 7)
  public static let timeSensitive = AuthorizationOptions(rawValue: 1 << 8)

  /// What the user grants an app that never asked when they allow it: alert, sound and badge.
  public static let userDefault: AuthorizationOptions = [.alert, .sound, .badge]
}

/// Whether an app may post notifications (UNAuthorizationStatus).
public enum AuthorizationStatus: Int, Hashable, Sendable, Codable, CaseIterable {
  case notDetermined = 0
  case denied = 1
  case authorized = 2
  /// Allowed quietly: delivered without sound or badge.
  case provisional = 3

  /// `not-determined`, `denied`, `authorized`, `provisional`.
  public var name: String {
    switch self {
    case .notDetermined: "not-determined"
    case .denied: "denied"
    case .authorized: "authorized"
    case .provisional: "provisional"
    }
  }
}
