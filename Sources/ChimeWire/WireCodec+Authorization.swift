public import ChimeCore
internal import CChimeProto
import ChimeRecords

/// Authorization, settings and badge: `RequestAuthorization`, `GetSettings`, `SetBadgeCount`
/// and the user-side `SetAppSettings`.
extension WireCodec {
  /// `AuthorizationRequest`.
  public static func encodeAuthorizationRequest(_ options: AuthorizationOptions) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__authorization_request__init)
      m.pointee.alert = options.contains(.alert) ? 1 : 0
      m.pointee.sound = options.contains(.sound) ? 1 : 0
      m.pointee.badge = options.contains(.badge) ? 1 : 0
      m.pointee.critical_alert = options.contains(.criticalAlert) ? 1 : 0
      m.pointee.provisional = options.contains(.provisional) ? 1 : 0
      m.pointee.time_sensitive = options.contains(.timeSensitive) ? 1 : 0
      m.pointee.car_play = options.contains(.carPlay) ? 1 : 0
      m.pointee.provides_app_notification_settings = options.contains(.providesAppNotificationSettings) ? 1 : 0
      m.pointee.announcement = options.contains(.announcement) ? 1 : 0
      return m
    }
  }

  public static func decodeAuthorizationRequest(_ bytes: [UInt8]) throws(ChimeError) -> AuthorizationOptions {
    try ProtoMessage.decode(bytes, as: "AuthorizationRequest", with: chime__v1__authorization_request__unpack) { m in
      let r = m.pointee
      var options: AuthorizationOptions = []
      if r.alert != 0 { options.insert(.alert) }
      if r.sound != 0 { options.insert(.sound) }
      if r.badge != 0 { options.insert(.badge) }
      if r.critical_alert != 0 { options.insert(.criticalAlert) }
      if r.provisional != 0 { options.insert(.provisional) }
      if r.time_sensitive != 0 { options.insert(.timeSensitive) }
      if r.car_play != 0 { options.insert(.carPlay) }
      if r.provides_app_notification_settings != 0 { options.insert(.providesAppNotificationSettings) }
      if r.announcement != 0 { options.insert(.announcement) }
      return options
    }
  }

  /// `AuthorizationResponse`.
  public static func encodeAuthorizationResponse(_ result: AuthorizationResult) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__authorization_response__init)
      m.pointee.granted = result.granted ? 1 : 0
      m.pointee.settings = buildSettings(result.settings, in: arena)
      return m
    }
  }

  public static func decodeAuthorizationResponse(_ bytes: [UInt8]) throws(ChimeError) -> AuthorizationResult {
    try ProtoMessage.decode(bytes, as: "AuthorizationResponse", with: chime__v1__authorization_response__unpack) { m throws(ChimeError) in
      let settings = if let s = m.pointee.settings { try settings(s.pointee, "settings.") } else { NotificationSettings() }
      return AuthorizationResult(granted: m.pointee.granted != 0, settings: settings)
    }
  }

  /// `NotificationSettings`.
  public static func encodeNotificationSettings(_ settings: NotificationSettings) -> [UInt8] {
    ProtoMessage.pack { arena in buildSettings(settings, in: arena) }
  }

  public static func decodeNotificationSettings(_ bytes: [UInt8]) throws(ChimeError) -> NotificationSettings {
    try ProtoMessage.decode(bytes, as: "NotificationSettings", with: chime__v1__notification_settings__unpack) { m throws(ChimeError) in
      try settings(m.pointee, "")
    }
  }

  /// `SetBadgeCountRequest`.
  public static func encodeSetBadgeCountRequest(_ count: Int) -> [UInt8] {
    ProtoMessage.pack { arena in
      let m = arena.message(chime__v1__set_badge_count_request__init)
      m.pointee.count = Int64(count)
      return m
    }
  }

  /// A count beyond `Int` is clamped (and refused by the server if negative).
  public static func decodeSetBadgeCountRequest(_ bytes: [UInt8]) throws(ChimeError) -> Int {
    try ProtoMessage.decode(bytes, as: "SetBadgeCountRequest", with: chime__v1__set_badge_count_request__unpack) { m in
      Int(clamping: m.pointee.count)
    }
  }

  /// `AppSettingsRequest`.
  public static func encodeAppSettingsRequest(_ change: AppSettingsChange) throws(ChimeError) -> [UInt8] {
    try ProtoMessage.packRefusingNUL("app id") { arena in
      let m = arena.message(chime__v1__app_settings_request__init)
      arena.assign(&m.pointee.app_id, change.appID)
      if let status = change.status {
        m.pointee.status_set_case = CHIME__V1__APP_SETTINGS_REQUEST__STATUS_SET_STATUS
        m.pointee.status = Chime__V1__AuthorizationStatus(rawValue: UInt32(status.rawValue))
      }
      func value(_ option: AuthorizationOptions) -> protobuf_c_boolean? {
        change.enable.contains(option) ? 1 : change.disable.contains(option) ? 0 : nil
      }
      if let v = value(.alert) { m.pointee.alert_set_case = CHIME__V1__APP_SETTINGS_REQUEST__ALERT_SET_ALERT; m.pointee.alert = v }
      if let v = value(.sound) { m.pointee.sound_set_case = CHIME__V1__APP_SETTINGS_REQUEST__SOUND_SET_SOUND; m.pointee.sound = v }
      if let v = value(.badge) { m.pointee.badge_set_case = CHIME__V1__APP_SETTINGS_REQUEST__BADGE_SET_BADGE; m.pointee.badge = v }
      if let v = value(.criticalAlert) {
        m.pointee.critical_alert_set_case = CHIME__V1__APP_SETTINGS_REQUEST__CRITICAL_ALERT_SET_CRITICAL_ALERT
        m.pointee.critical_alert = v
      }
      if let v = value(.timeSensitive) {
        m.pointee.time_sensitive_set_case = CHIME__V1__APP_SETTINGS_REQUEST__TIME_SENSITIVE_SET_TIME_SENSITIVE
        m.pointee.time_sensitive = v
      }
      if let v = value(.carPlay) { m.pointee.car_play_set_case = CHIME__V1__APP_SETTINGS_REQUEST__CAR_PLAY_SET_CAR_PLAY; m.pointee.car_play = v }
      if let v = value(.announcement) {
        m.pointee.announcement_set_case = CHIME__V1__APP_SETTINGS_REQUEST__ANNOUNCEMENT_SET_ANNOUNCEMENT
        m.pointee.announcement = v
      }
      return m
    }
  }

  public static func decodeAppSettingsRequest(_ bytes: [UInt8]) throws(ChimeError) -> AppSettingsChange {
    try ProtoMessage.decode(bytes, as: "AppSettingsRequest", with: chime__v1__app_settings_request__unpack) { m throws(ChimeError) in
      let r = m.pointee
      var change = AppSettingsChange(appID: try ProtoMessage.text(r.app_id, "app_id"))
      if r.status_set_case == CHIME__V1__APP_SETTINGS_REQUEST__STATUS_SET_STATUS {
        change.status = try status(r.status, "status")
      }
      func set(_ option: AuthorizationOptions, _ isSet: Bool, _ on: protobuf_c_boolean) {
        guard isSet else { return }
        if on != 0 { change.enable.insert(option) } else { change.disable.insert(option) }
      }
      set(.alert, r.alert_set_case == CHIME__V1__APP_SETTINGS_REQUEST__ALERT_SET_ALERT, r.alert)
      set(.sound, r.sound_set_case == CHIME__V1__APP_SETTINGS_REQUEST__SOUND_SET_SOUND, r.sound)
      set(.badge, r.badge_set_case == CHIME__V1__APP_SETTINGS_REQUEST__BADGE_SET_BADGE, r.badge)
      set(.criticalAlert, r.critical_alert_set_case == CHIME__V1__APP_SETTINGS_REQUEST__CRITICAL_ALERT_SET_CRITICAL_ALERT, r.critical_alert)
      set(.timeSensitive, r.time_sensitive_set_case == CHIME__V1__APP_SETTINGS_REQUEST__TIME_SENSITIVE_SET_TIME_SENSITIVE, r.time_sensitive)
      set(.carPlay, r.car_play_set_case == CHIME__V1__APP_SETTINGS_REQUEST__CAR_PLAY_SET_CAR_PLAY, r.car_play)
      set(.announcement, r.announcement_set_case == CHIME__V1__APP_SETTINGS_REQUEST__ANNOUNCEMENT_SET_ANNOUNCEMENT, r.announcement)
      return change
    }
  }

  private static func buildSettings(_ s: NotificationSettings, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__NotificationSettings> {
    let m = arena.message(chime__v1__notification_settings__init)
    m.pointee.authorization_status = Chime__V1__AuthorizationStatus(rawValue: UInt32(s.status.rawValue))
    m.pointee.alert = s.alert ? 1 : 0
    m.pointee.sound = s.sound ? 1 : 0
    m.pointee.badge = s.badge ? 1 : 0
    m.pointee.critical_alert = s.criticalAlert ? 1 : 0
    m.pointee.time_sensitive = s.timeSensitive ? 1 : 0
    m.pointee.car_play = s.carPlay ? 1 : 0
    m.pointee.announcement = s.announcement ? 1 : 0
    m.pointee.provides_app_notification_settings = s.providesAppNotificationSettings ? 1 : 0
    m.pointee.badge_count = Int64(s.badgeCount)
    return m
  }

  private static func settings(_ m: Chime__V1__NotificationSettings, _ prefix: String) throws(ChimeError) -> NotificationSettings {
    NotificationSettings(
      status: try status(m.authorization_status, prefix + "authorization_status"),
      alert: m.alert != 0, sound: m.sound != 0, badge: m.badge != 0, criticalAlert: m.critical_alert != 0,
      timeSensitive: m.time_sensitive != 0, carPlay: m.car_play != 0, announcement: m.announcement != 0,
      providesAppNotificationSettings: m.provides_app_notification_settings != 0,
      badgeCount: Int(clamping: m.badge_count))
  }

  private static func status(_ v: Chime__V1__AuthorizationStatus, _ field: String) throws(ChimeError) -> AuthorizationStatus {
    guard let status = AuthorizationStatus(rawValue: Int(v.rawValue)) else { throw WireErrors.unknownEnum(v.rawValue, field: field) }
    return status
  }
}
