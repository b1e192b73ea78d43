public import ChimeCore
import ChimeWire

/// The app's authorization, settings and badge, and the user's own settings (another app's
/// settings, Do Not Disturb).
extension ChimeClient {
  /// Asks for `options`. The first request records the daemon's policy decision; later ones
  /// answer it unchanged.
  public func requestAuthorization(_ options: AuthorizationOptions) async throws(ChimeError) -> AuthorizationResult {
    try await unary(CallTable.requestAuthorization, options)
  }

  /// The app's authorization status, effective settings and badge count.
  public func settings() async throws(ChimeError) -> NotificationSettings {
    try await unary(CallTable.getSettings, Empty())
  }

  /// Sets the app's badge count (0 clears it).
  ///
  /// - Throws: INVALID_ARGUMENT `BADGE_INPUT_INVALID` for a negative count; PERMISSION_DENIED
  ///   `BADGE_NOT_ALLOWED` when the app's badge setting is off.
  public func setBadgeCount(_ count: Int) async throws(ChimeError) {
    _ = try await unary(CallTable.setBadgeCount, count)
  }

  /// The user's call: allows, denies or switches settings of `change.appID` (any app, not
  /// this client's), and answers that app's settings. An empty change just reads them.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_APP_ID` or `INVALID_APP_SETTINGS` (checked here before
  ///   sending, and again by the daemon).
  public func setAppSettings(_ change: AppSettingsChange) async throws(ChimeError) -> NotificationSettings {
    // A setting both on and off cannot be sent faithfully: refuse it here, as the daemon would.
    try change.validate()
    return try await unary(CallTable.setAppSettings, change)
  }

  /// The user's call: changes the user's Do Not Disturb setting (manual on or off, the
  /// schedule set or cleared, whether a paused notification server counts, whether a summary
  /// is shown when it ends) and answers it with the state now.
  ///
  /// - Throws: INVALID_ARGUMENT `DND_UNTIL_IN_PAST`, `INVALID_DND_SCHEDULE` or
  ///   `INVALID_DND_DAYS`.
  public func setDoNotDisturb(_ change: DoNotDisturbChange) async throws(ChimeError) -> DoNotDisturbReport {
    try await unary(CallTable.setDoNotDisturb, change)
  }

  /// The user's Do Not Disturb setting and whether it is on now, from which source (with the
  /// followed desktop's state: `status.desktop`).
  public func doNotDisturb() async throws(ChimeError) -> DoNotDisturbReport {
    try await unary(CallTable.getDoNotDisturb, Empty())
  }
}
