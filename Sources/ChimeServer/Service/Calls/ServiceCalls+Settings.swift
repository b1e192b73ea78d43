import ChimeCore
import ChimeWire

/// Authorization, settings and badge, apps and sounds, the server, Do Not Disturb.
extension ServiceCalls {
  func requestAuthorization(_ call: any ServerCall, _ options: AuthorizationOptions,
                            reply: @escaping (Result<AuthorizationResult, ChimeError>) -> Void) {
    service.authorization.requestAuthorization(app: call.app, options: options, deadline: call.deadline, reply: reply)
  }

  func getSettings(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<NotificationSettings, ChimeError>) -> Void) {
    service.authorization.getSettings(app: call.app, reply: reply)
  }

  func setBadgeCount(_ call: any ServerCall, _ count: Int, reply: @escaping (Result<Empty, ChimeError>) -> Void) {
    service.authorization.setBadgeCount(app: call.app, count: count) { reply($0.map { Empty() }) }
  }

  /// A user-side call: the app it changes is in the request; the caller's app id is not used.
  func setAppSettings(_ call: any ServerCall, _ change: AppSettingsChange,
                      reply: @escaping (Result<NotificationSettings, ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "SetAppSettings")
    service.authorization.setAppSettings(change, reply: reply)
  }

  func registerApp(_ call: any ServerCall, _ registration: WireCodec.AppRegistration, reply: @escaping (Result<AppLayout, ChimeError>) -> Void) {
    service.apps.registerApp(app: call.app, container: registration.container, groups: registration.groupContainers,
                             bundle: registration.bundle, displayName: registration.displayName,
                             desktopEntry: registration.desktopEntry, reply: reply)
  }

  func getApp(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<AppLayout, ChimeError>) -> Void) {
    service.apps.app(app: call.app, reply: reply)
  }

  func listApps(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[AppLayout], ChimeError>) -> Void) {
    service.apps.apps(reply: reply)
  }

  /// A user-side call: the user's apps, not the caller's data.
  func listKnownApps(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<[AppLayout], ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "ListKnownApps")
    service.apps.knownApps(reply: reply)
  }

  func checkSound(_ call: any ServerCall, _ name: String, reply: @escaping (Result<SoundCheck, ChimeError>) -> Void) {
    service.apps.checkSound(app: call.app, name: name, reply: reply)
  }

  func getServerInfo(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<ServerInfo, ChimeError>) -> Void) {
    reply(.success(server))
  }

  /// A user-side call: the user's setting, not the caller's app.
  func setDoNotDisturb(_ call: any ServerCall, _ change: DoNotDisturbChange,
                       reply: @escaping (Result<DoNotDisturbReport, ChimeError>) -> Void) throws(ChimeError) {
    try Self.userSetting(call, "SetDoNotDisturb")
    service.doNotDisturb.set(change, reply: reply)
  }

  func getDoNotDisturb(_ call: any ServerCall, _ request: Empty, reply: @escaping (Result<DoNotDisturbReport, ChimeError>) -> Void) {
    service.doNotDisturb.get(reply: reply)
  }
}
