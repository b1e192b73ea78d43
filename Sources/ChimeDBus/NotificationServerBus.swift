import ChimeCore
internal import CSystemd
package import ChimeServer
package import Logging

/// The freedesktop presenter's connection to org.freedesktop.Notifications, on the loop's
/// sd-bus driver (`BusConnection`): `Notify`, `GetCapabilities`, `CloseNotification`, the
/// server's signals, and (NotificationServerBus+DesktopQuiet.swift) the server's own Do Not
/// Disturb. Loop thread only.
final class NotificationServerBus: NotificationServerLink {
  static let notifications = "org.freedesktop.Notifications"
  static let notificationsPath = "/org/freedesktop/Notifications"
  static let properties = "org.freedesktop.DBus.Properties"
  /// dunst's control interface, with its `paused` property (`dunstctl set-paused`).
  static let dunstControl = "org.dunstproject.cmd0"
  static let dunstPaused = "paused"
  /// KDE Plasma's property on the notifications interface.
  static let kdeInhibited = "Inhibited"

  let connection: BusConnection
  let logger: Logger
  /// Following the server's own Do Not Disturb, and what was last seen of it.
  var followingDesktop = false
  var dunstPaused = false
  var kdeInhibited = false
  var onDisconnect: (() -> Void)?
  var onSignal: ((NotificationServerSignal) -> Void)?

  /// Connects to the session bus `DBUS_SESSION_BUS_ADDRESS` names (else the user's default).
  init(loop: EventLoop, logger: Logger) throws(NotificationServerError) {
    self.logger = logger
    do throws(ChimeError) {
      connection = try BusConnection(loop: loop, address: nil, logger: logger)
    } catch {
      throw NotificationServerError(description: error.message)
    }
    connection.onDisconnect = { [unowned self] why in
      logger.warning("session bus connection lost", metadata: ["why": "\(why)"])
      onDisconnect?()
    }
    subscribeSignals()
  }

  var isOpen: Bool { connection.isOpen }

  func capabilities(_ done: @escaping (Result<[String], NotificationServerError>) -> Void) {
    call("GetCapabilities", build: { _ in 0 }, done: { reply in
      done(reply.flatMap { message in
        Self.strings(message).map { .success($0) } ?? .failure(NotificationServerError(description: "GetCapabilities: unreadable reply"))
      })
    })
  }

  func notify(_ plan: DesktopNotificationPlan, _ done: @escaping (Result<UInt32, NotificationServerError>) -> Void) {
    call("Notify", build: { m in
      var r = chime_bus_append_string(m, plan.appName)
      if r >= 0 { r = chime_bus_append_u32(m, plan.replacesID) }
      if r >= 0 { r = chime_bus_append_string(m, plan.appIcon) }
      if r >= 0 { r = chime_bus_append_string(m, plan.summary) }
      if r >= 0 { r = chime_bus_append_string(m, plan.body) }
      if r >= 0 { r = sd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "s") }
      for action in plan.actions where r >= 0 { r = chime_bus_append_string(m, action) }
      if r >= 0 { r = sd_bus_message_close_container(m) }
      if r >= 0 { r = sd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "{sv}") }
      for hint in plan.hints where r >= 0 {
        switch hint.value {
        case .string(let s): r = chime_bus_append_hint(m, hint.key, CChar(UInt8(ascii: "s")), s, 0)
        case .byte(let b): r = chime_bus_append_hint(m, hint.key, CChar(UInt8(ascii: "y")), nil, UInt32(b))
        case .boolean(let b): r = chime_bus_append_hint(m, hint.key, CChar(UInt8(ascii: "b")), nil, b ? 1 : 0)
        }
      }
      if r >= 0 { r = sd_bus_message_close_container(m) }
      if r >= 0 { r = chime_bus_append_i32(m, plan.expireTimeout) }
      return r
    }, done: { reply in
      done(reply.flatMap { message in
        var id: UInt32 = 0
        let r = chime_bus_read_u32(message, &id)
        return r >= 0 ? .success(id) : .failure(NotificationServerError(description: "Notify: unreadable reply: \(BusConnection.errno(r))"))
      })
    })
  }

  func closeNotification(_ id: UInt32) {
    call("CloseNotification", build: { m in chime_bus_append_u32(m, id) }, done: { [logger] reply in
      if case .failure(let error) = reply { logger.debug("CloseNotification failed", metadata: ["id": "\(id)", "error": "\(error)"]) }
    })
  }

  func close() {
    connection.onDisconnect = nil
    connection.close()
  }

  /// Calls a method of the notification server (or, with `interface`, of its properties).
  func call(_ method: String, interface: String = notifications, build: (OpaquePointer) -> Int32,
            done: @escaping (Result<OpaquePointer, NotificationServerError>) -> Void) {
    connection.call(Self.notifications, Self.notificationsPath, interface, method, build: build) { reply in
      done(reply.mapError { NotificationServerError(description: $0.message) })
    }
  }

  private func subscribeSignals() {
    connection.matchDriverSignal("NameOwnerChanged") { [unowned self] message in
      var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
      guard chime_bus_read_string(message, &name) >= 0, chime_bus_read_string(message, &old) >= 0,
            chime_bus_read_string(message, &new) >= 0, let name, String(cString: name) == Self.notifications else { return }
      let owner = new.map { String(cString: $0) } ?? ""
      onSignal?(.serverChanged(owner: owner))
      if followingDesktop { owner.isEmpty ? desktopQuietSeen(dunst: false, kde: false) : readDesktopQuiet() }
    }
    for member in ["ActionInvoked", "NotificationClosed"] {
      let matched = connection.matchSignal(sender: nil, path: Self.notificationsPath, interface: Self.notifications, member: member) {
        [unowned self] message in received(member, message)
      }
      if !matched { logger.warning("cannot subscribe to notification signals", metadata: ["member": "\(member)"]) }
    }
  }

  private func received(_ member: String, _ message: OpaquePointer) {
    var id: UInt32 = 0
    guard chime_bus_read_u32(message, &id) >= 0 else { return }
    if member == "ActionInvoked" {
      var key: UnsafePointer<CChar>?
      guard chime_bus_read_string(message, &key) >= 0, let key else { return }
      onSignal?(.actionInvoked(id: id, key: String(cString: key)))
    } else {
      var reason: UInt32 = 0
      guard chime_bus_read_u32(message, &reason) >= 0 else { return }
      onSignal?(.closed(id: id, reason: reason))
    }
  }

  /// The string array (`as`) a message holds next; nil when it holds none.
  static func strings(_ message: OpaquePointer) -> [String]? {
    var strv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    guard sd_bus_message_read_strv(message, &strv) >= 0 else { return nil }
    defer { chime_bus_strv_free(strv) }
    var names: [String] = []
    var i = 0
    while let item = strv?[i] {
      names.append(String(cString: item))
      i += 1
    }
    return names
  }
}

/// The presenter's connection for `ServerTransports.notificationServer`: the session bus,
/// through the same sd-bus driver as the D-Bus API.
package struct NotificationServer: NotificationServerConnector {
  package init() {}

  package func connect(loop: EventLoop, logger: Logger) throws(NotificationServerError) -> any NotificationServerLink {
    try NotificationServerBus(loop: loop, logger: logger)
  }
}
