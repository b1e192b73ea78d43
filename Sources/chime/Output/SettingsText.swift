import ChimeCore

/// How `chime settings`, `chime authorize` and `chime apps allow|deny|settings` print an app's
/// settings.
enum SettingsText {
  static func lines(_ s: NotificationSettings, app: String) -> String {
    func onOff(_ value: Bool) -> String { value ? "on" : "off" }
    return """
      app             \(app)
      status          \(s.status.name)
      alert           \(onOff(s.alert))
      sound           \(onOff(s.sound))
      badge           \(onOff(s.badge))
      critical-alert  \(onOff(s.criticalAlert))
      time-sensitive  \(onOff(s.timeSensitive))
      car-play        \(onOff(s.carPlay))
      announcement    \(onOff(s.announcement))
      badge count     \(s.badgeCount)
      """
  }

  static func json(_ s: NotificationSettings, app: String) -> [String: Any] {
    [
      "app": app, "status": s.status.name, "alert": s.alert, "sound": s.sound, "badge": s.badge,
      "critical_alert": s.criticalAlert, "time_sensitive": s.timeSensitive, "car_play": s.carPlay,
      "announcement": s.announcement, "provides_app_notification_settings": s.providesAppNotificationSettings,
      "badge_count": s.badgeCount,
    ]
  }
}
