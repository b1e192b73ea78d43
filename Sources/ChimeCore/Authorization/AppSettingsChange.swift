/// What the user changes for one app (`SetAppSettings`, `chime apps allow|deny|settings`): an
/// unset field is unchanged.
public struct AppSettingsChange: Hashable, Sendable {
  /// The app changed; not the caller's.
  public var appID: String
  /// `.authorized` allows the app, `.denied` denies it; nil leaves the status.
  public var status: AuthorizationStatus?
  /// Permissions switched on or off; a permission in neither set is unchanged.
  public var enable: AuthorizationOptions
  public var disable: AuthorizationOptions

  public init(appID: String, status: AuthorizationStatus? = nil, enable: AuthorizationOptions = [], disable: AuthorizationOptions = []) {
    self.appID = appID
    self.status = status
    self.enable = enable
    self.disable = disable
  }

  /// The settings a user may switch one by one.
  public static let switchable: AuthorizationOptions = [.alert, .sound, .badge, .criticalAlert, .timeSensitive, .carPlay, .announcement]

  /// Checks the change: a valid app id, a status of allowed or denied only, no permission both
  /// on and off, only switchable ones.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_APP_ID`; INVALID_ARGUMENT `INVALID_APP_SETTINGS`.
  public func validate() throws(ChimeError) {
    do {
      try AppID.validate(appID)
    } catch {
      throw ChimeError(.invalidAppID, error.message, field: "app_id")
    }
    if let status, status != .authorized, status != .denied {
      throw ChimeError(.invalidAppSettings, "the user can allow or deny an app, not make it \(status.name)", field: "status")
    }
    guard enable.isDisjoint(with: disable) else {
      throw ChimeError(.invalidAppSettings, "a setting cannot be switched on and off at once")
    }
    guard Self.switchable.isSuperset(of: enable.union(disable)) else {
      throw ChimeError(.invalidAppSettings, "only alert, sound, badge, critical alert, time sensitive, CarPlay and announcement can be switched")
    }
  }

  /// `recorded` after the change. Switches start from what the app was granted
  /// (`AuthorizationOptions.userDefault` if nothing yet); allowing an app with nothing granted
  /// grants `userDefault`, allowing a denied one restores what it had.
  public func applied(to recorded: AppAuthorization) -> AppAuthorization {
    var changed = recorded
    var granted = recorded.granted ?? AuthorizationOptions.userDefault
    if let status {
      if status == .authorized, granted.isEmpty { granted = AuthorizationOptions.userDefault }
      changed.status = status
    }
    granted.formUnion(enable)
    granted.subtract(disable)
    if changed.status != recorded.status || changed.granted != nil || !enable.isEmpty || !disable.isEmpty {
      changed.granted = granted
    }
    return changed
  }
}
