import ChimeCore
internal import CSystemd
import Logging

/// A connection to the session bus through sd-bus, driven by the loop: its socket sits in a
/// libuv poll handle and its timeouts in a loop timer, every call is asynchronous, and replies
/// and signals come back in callbacks on the loop thread. Nothing here blocks. With its
/// extension following the server's own Do Not Disturb (SessionBus+DesktopQuiet.swift), the
/// presenter's side of sd-bus; chimed's own D-Bus API has its connection in DBus/ (BusLink).
/// Loop thread only.
final class SessionBus {
  enum Signal {
    case actionInvoked(id: UInt32, key: String)
    case closed(id: UInt32, reason: UInt32)
    /// org.freedesktop.Notifications has a new owner (empty: none): another server, or none.
    case serverChanged(owner: String)
    /// The server's own Do Not Disturb, read or changed (nil: neither paused nor inhibited);
    /// only after `followDesktopQuiet()`.
    case desktopQuiet(DesktopQuiet?)
  }

  struct BusError: Error, CustomStringConvertible {
    var description: String
  }

  static let notifications = "org.freedesktop.Notifications"
  static let notificationsPath = "/org/freedesktop/Notifications"
  static let properties = "org.freedesktop.DBus.Properties"
  /// dunst's control interface, with its `paused` property (`dunstctl set-paused`).
  static let dunstControl = "org.dunstproject.cmd0"
  static let dunstPaused = "paused"
  /// KDE Plasma's property on the notifications interface.
  static let kdeInhibited = "Inhibited"
  /// How long a call waits for its reply.
  static let callTimeoutMicros: UInt64 = 10_000_000

  private let loop: EventLoop
  let logger: Logger
  var bus: OpaquePointer?
  private var poll: LoopPoll?
  private var timer: LoopTimer?
  var slots: [OpaquePointer] = []
  /// Calls waiting for their replies, by token: failed all at once when the connection goes.
  private var pending: [UInt64: (OpaquePointer?) -> Void] = [:]
  private var nextToken: UInt64 = 1
  /// Keeps the signal handler's context alive while its match is installed.
  private var signalBox: Unmanaged<BusCallbackBox>?
  private var ownerChangedBox: Unmanaged<BusCallbackBox>?
  var propertiesBox: Unmanaged<BusCallbackBox>?
  /// Following the server's own Do Not Disturb, and what was last seen of it.
  var followingDesktop = false
  var dunstPaused = false
  var kdeInhibited = false
  /// Called once when the connection is lost (not after `close()`).
  var onDisconnect: (() -> Void)?
  var onSignal: ((Signal) -> Void)?

  /// Connects to the session bus `DBUS_SESSION_BUS_ADDRESS` names (else the user's default);
  /// the handshake finishes on the loop.
  init(loop: EventLoop, logger: Logger) throws(BusError) {
    self.loop = loop
    self.logger = logger
    var opened: OpaquePointer?
    let r = sd_bus_open_user(&opened)
    guard r >= 0, let opened else { throw BusError(description: "cannot connect to the session bus: \(Self.errno(r))") }
    bus = opened
    let fd = sd_bus_get_fd(opened)
    do {
      poll = try LoopPoll(loop: loop, fd: fd) { [unowned self] events in
        if events == nil { disconnected("the bus socket failed") } else { pump() }
      }
    } catch {
      sd_bus_flush_close_unref(opened)
      bus = nil
      throw BusError(description: "cannot watch the bus socket: \(error)")
    }
    timer = LoopTimer(loop: loop) { [unowned self] in pump() }
    subscribeSignals()
    rearm()
  }

  var isOpen: Bool { bus != nil }

  /// `GetCapabilities`.
  func capabilities(_ done: @escaping (Result<[String], BusError>) -> Void) {
    call("GetCapabilities", build: { _ in 0 }, done: { reply in
      done(reply.flatMap { message in
        Self.strings(message).map { .success($0) } ?? .failure(BusError(description: "GetCapabilities: unreadable reply"))
      })
    })
  }

  /// `Notify`; answers the server's id for the notification.
  func notify(_ plan: DesktopNotificationPlan, _ done: @escaping (Result<UInt32, BusError>) -> Void) {
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
        return r >= 0 ? .success(id) : .failure(BusError(description: "Notify: unreadable reply: \(Self.errno(r))"))
      })
    })
  }

  /// `CloseNotification`; errors (already closed) are only logged.
  func closeNotification(_ id: UInt32) {
    call("CloseNotification", build: { m in chime_bus_append_u32(m, id) }, done: { [logger] reply in
      if case .failure(let error) = reply { logger.debug("CloseNotification failed", metadata: ["id": "\(id)", "error": "\(error)"]) }
    })
  }

  /// Closes the connection; no callback runs afterwards.
  func close() {
    guard let bus else { return }
    self.bus = nil
    poll?.close()
    poll = nil
    timer?.close()
    timer = nil
    for slot in slots { sd_bus_slot_unref(slot) }
    slots.removeAll()
    signalBox?.release()
    signalBox = nil
    ownerChangedBox?.release()
    ownerChangedBox = nil
    propertiesBox?.release()
    propertiesBox = nil
    // No flush: it would block the loop until the queue drains.
    sd_bus_close_unref(bus)
    // Their callbacks will not run: each waiting call fails now.
    let waiting = pending.sorted { $0.key < $1.key }.map(\.value)
    pending.removeAll()
    for fail in waiting { fail(nil) }
  }

  // MARK: internals

  func call(_ method: String, interface: String = notifications, build: (OpaquePointer) -> Int32,
                    done: @escaping (Result<OpaquePointer, BusError>) -> Void) {
    guard let bus else { return done(.failure(BusError(description: "\(method): not connected"))) }
    var message: OpaquePointer?
    var r = sd_bus_message_new_method_call(bus, &message, Self.notifications, Self.notificationsPath, interface, method)
    guard r >= 0, let message else { return done(.failure(BusError(description: "\(method): \(Self.errno(r))"))) }
    defer { sd_bus_message_unref(message) }
    r = build(message)
    guard r >= 0 else { return done(.failure(BusError(description: "\(method): cannot build the call: \(Self.errno(r))"))) }
    let token = nextToken
    nextToken += 1
    pending[token] = { reply in
      guard let reply else { return done(.failure(BusError(description: "\(method): the connection was lost"))) }
      if let text = chime_bus_error_message(reply) {
        done(.failure(BusError(description: "\(method): \(String(cString: text))")))
      } else {
        done(.success(reply))
      }
    }
    let box = Unmanaged.passRetained(BusCallbackBox { [weak self] reply in
      self?.pending.removeValue(forKey: token)?(reply)
    })
    r = sd_bus_call_async(bus, nil, message, busReplyHandler(), box.toOpaque(), Self.callTimeoutMicros)
    guard r >= 0 else {
      box.release()
      pending[token] = nil
      return done(.failure(BusError(description: "\(method): \(Self.errno(r))")))
    }
    scheduleRearm()
  }

  private func subscribeSignals() {
    guard let bus else { return }
    let box = Unmanaged.passRetained(BusCallbackBox { [unowned self] message in
      guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else { return }
      var id: UInt32 = 0
      guard chime_bus_read_u32(message, &id) >= 0 else { return }
      if member == "ActionInvoked" {
        var key: UnsafePointer<CChar>?
        guard chime_bus_read_string(message, &key) >= 0, let key else { return }
        onSignal?(.actionInvoked(id: id, key: String(cString: key)))
      } else if member == "NotificationClosed" {
        var reason: UInt32 = 0
        guard chime_bus_read_u32(message, &reason) >= 0 else { return }
        onSignal?(.closed(id: id, reason: reason))
      }
    })
    signalBox = box
    let ownerBox = Unmanaged.passRetained(BusCallbackBox { [unowned self] message in
      var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
      guard chime_bus_read_string(message, &name) >= 0, chime_bus_read_string(message, &old) >= 0,
            chime_bus_read_string(message, &new) >= 0, let name, String(cString: name) == Self.notifications else { return }
      let owner = new.map { String(cString: $0) } ?? ""
      onSignal?(.serverChanged(owner: owner))
      if followingDesktop { owner.isEmpty ? desktopQuietSeen(dunst: false, kde: false) : readDesktopQuiet() }
    })
    ownerChangedBox = ownerBox
    var ownerSlot: OpaquePointer?
    let owner = sd_bus_match_signal_async(bus, &ownerSlot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                          "NameOwnerChanged", busSignalHandler(), nil, ownerBox.toOpaque())
    if owner >= 0, let ownerSlot { slots.append(ownerSlot) }
    for member in ["ActionInvoked", "NotificationClosed"] {
      var slot: OpaquePointer?
      let r = sd_bus_match_signal_async(bus, &slot, nil, Self.notificationsPath, Self.notifications, member,
                                        busSignalHandler(), nil, box.toOpaque())
      if r >= 0, let slot {
        slots.append(slot)
      } else {
        logger.warning("cannot subscribe to notification signals", metadata: ["member": "\(member)", "error": "\(Self.errno(r))"])
      }
    }
  }

  /// Lets sd-bus read, write and dispatch what it can, then watches what it waits for.
  private func pump() {
    guard let bus else { return }
    while true {
      let r = sd_bus_process(bus, nil)
      if r < 0 {
        disconnected("sd_bus_process: \(Self.errno(r))")
        return
      }
      // A callback may have closed the connection.
      guard self.bus != nil else { return }
      if r == 0 { break }
    }
    rearm()
  }

  private func scheduleRearm() {
    timer?.arm(afterMillis: 0)
  }

  private func rearm() {
    guard let bus else { return }
    if sd_bus_is_open(bus) <= 0 {
      disconnected("the session bus closed the connection")
      return
    }
    let wanted = chime_bus_wanted_events(bus)
    var events: LoopPoll.Events = []
    if wanted >= 0 {
      if wanted & 1 != 0 { events.insert(.readable) }
      if wanted & 2 != 0 { events.insert(.writable) }
    }
    poll?.watch(events)
    let millis = chime_bus_timeout_millis(bus)
    if millis >= 0 { timer?.arm(afterMillis: UInt64(millis)) } else { timer?.disarm() }
  }

  private func disconnected(_ why: String) {
    guard bus != nil else { return }
    logger.warning("session bus connection lost", metadata: ["why": "\(why)"])
    close()
    onDisconnect?()
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

  static func errno(_ r: Int32) -> String {
    String(cString: chime_strerror(r))
  }
}
