import ChimeCore
import ChimeServer
import ChimeWire

/// `ListApps`: the user's apps with their settings, for a settings page (Chime Center). The
/// router lists them (`ListKnownApps`, a user-side call, so a sandboxed caller is refused
/// there) and answers each one's settings as that app's own `GetSettings` would.
extension DBusFace {
  func listApps(_ request: DBusRequest, _ app: String, _ confined: String?) {
    guard let router else { return answer(request, .failure(Self.noRouter)) }
    let descriptor = Routes.listKnownApps.descriptor
    let serverCall = DBusCall(descriptor.method, app: app, confinedApp: confined)
    router.call(Routes.listKnownApps, serverCall, header: CallHeader(method: descriptor.method.rawValue, appID: app), request: Empty()) {
      [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        answer(request, .failure(error))
      case .success(let layouts):
        readSettings(of: layouts, request, router, done: [])
      }
    }
  }

  /// Reads each app's settings in turn (from the loop's copy: no store read), then answers.
  private func readSettings(of layouts: [AppLayout], _ request: DBusRequest, _ router: CallRouter, done: [DBusRecords.Pairs]) {
    guard let layout = layouts.first else { return answer(request, .success([.vardicts(done)])) }
    let descriptor = Routes.getSettings.descriptor
    let serverCall = DBusCall(descriptor.method, app: layout.appID, confinedApp: nil)
    router.call(Routes.getSettings, serverCall, header: CallHeader(method: descriptor.method.rawValue, appID: layout.appID),
                request: Empty()) { [weak self] result in
      guard let self else { return }
      switch result {
      case .failure(let error):
        answer(request, .failure(error))
      case .success(let found):
        readSettings(of: Array(layouts.dropFirst()), request, router, done: done + [DBusRecords.knownApp(layout, found)])
      }
    }
  }
}

extension DBusRecords {
  /// One app as ListApps lists it.
  static func knownApp(_ layout: AppLayout, _ settings: NotificationSettings) -> Pairs {
    [("app-id", .string(layout.appID)), ("display-name", .string(layout.displayName)),
     ("desktop-entry", .string(layout.desktopEntry)), ("registered", .boolean(layout.registered)),
     ("settings", .vardict(Self.settings(settings)))]
  }
}
