/// An app's authorization status and effective settings, as `GetSettings` answers them
/// (UNNotificationSettings), with its badge count.
public struct NotificationSettings: Hashable, Sendable {
  public var status: AuthorizationStatus
  /// Each permission as in effect now (false for a denied app, and for sound and badge of a
  /// provisional one).
  public var alert: Bool
  public var sound: Bool
  public var badge: Bool
  public var criticalAlert: Bool
  public var timeSensitive: Bool
  public var carPlay: Bool
  public var announcement: Bool
  public var providesAppNotificationSettings: Bool
  /// The app's badge count (0: no badge).
  public var badgeCount: Int

  public init(status: AuthorizationStatus = .notDetermined, alert: Bool = false, sound: Bool = false, badge: Bool = false,
              criticalAlert: Bool = false, timeSensitive: Bool = false, carPlay: Bool = false, announcement: Bool = false,
              providesAppNotificationSettings: Bool = false, badgeCount: Int = 0) {
    self.status = status
    self.alert = alert
    self.sound = sound
    self.badge = badge
    self.criticalAlert = criticalAlert
    self.timeSensitive = timeSensitive
    self.carPlay = carPlay
    self.announcement = announcement
    self.providesAppNotificationSettings = providesAppNotificationSettings
    self.badgeCount = badgeCount
  }

  /// The settings `recorded` gives under `policy`: what `DeliveryPermissions` allows, with the
  /// recorded status and badge count.
  public init(_ recorded: AppAuthorization, policy: AuthorizationPolicy) {
    let allowed = DeliveryPermissions(recorded, policy: policy).effective
    self.init(status: recorded.status, alert: allowed.contains(.alert), sound: allowed.contains(.sound),
              badge: allowed.contains(.badge), criticalAlert: allowed.contains(.criticalAlert),
              timeSensitive: allowed.contains(.timeSensitive), carPlay: allowed.contains(.carPlay),
              announcement: allowed.contains(.announcement),
              providesAppNotificationSettings: allowed.contains(.providesAppNotificationSettings),
              badgeCount: recorded.badgeCount)
  }
}
