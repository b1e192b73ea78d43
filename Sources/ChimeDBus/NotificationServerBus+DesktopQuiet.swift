import ChimeCore
internal import CSystemd
import ChimeServer
import Logging

/// Following the notification server's own Do Not Disturb (dunst's `paused`, KDE's
/// `Inhibited`) on the session bus: read now and when the server changes, and followed by
/// PropertiesChanged. Loop thread only.
extension NotificationServerBus {
  /// Follows the server's own Do Not Disturb: reads dunst's `paused` and KDE's `Inhibited`
  /// now and whenever the server changes, and watches their PropertiesChanged signals; each
  /// reading comes as `.desktopQuiet`. A server without the property counts as not paused.
  func followDesktopQuiet() {
    guard connection.isOpen, !followingDesktop else { return }
    followingDesktop = true
    // From the server only: the bus delivers the signals of whoever owns the name.
    let matched = connection.matchSignal(sender: Self.notifications, path: Self.notificationsPath, interface: Self.properties,
                                         member: "PropertiesChanged") { [unowned self] message in
      var interface: UnsafePointer<CChar>?
      guard chime_bus_read_string(message, &interface) >= 0, let interface else { return }
      let name = String(cString: interface)
      let key = name == Self.dunstControl ? Self.dunstPaused : name == Self.notifications ? Self.kdeInhibited : nil
      guard let key else { return }
      var value: Int32 = 0
      let found = chime_bus_read_changed_bool(message, key, &value)
      if found > 0 {
        if key == Self.dunstPaused {
          desktopQuietSeen(dunst: value != 0, kde: kdeInhibited)
        } else {
          desktopQuietSeen(dunst: dunstPaused, kde: value != 0)
        }
      } else if found == 0, (Self.strings(message) ?? []).contains(key) {
        // Said to have changed without its value: asked for it.
        readDesktopQuiet()
      }
    }
    if !matched { logger.warning("cannot watch the notification server's do not disturb") }
    readDesktopQuiet()
  }

  /// Reads both properties; the answer comes as `.desktopQuiet` once both replies are in.
  func readDesktopQuiet() {
    var dunst: Bool?, kde: Bool?
    let both = { [weak self] in
      guard let self, let dunst, let kde else { return }
      desktopQuietSeen(dunst: dunst, kde: kde)
    }
    readBool(Self.dunstControl, Self.dunstPaused) { value in
      dunst = value
      both()
    }
    readBool(Self.notifications, Self.kdeInhibited) { value in
      kde = value
      both()
    }
  }

  /// `Properties.Get` of a boolean; false when the server has no such property (or none runs).
  private func readBool(_ interface: String, _ property: String, _ done: @escaping (Bool) -> Void) {
    call("Get", interface: Self.properties, build: { m in
      var r = chime_bus_append_string(m, interface)
      if r >= 0 { r = chime_bus_append_string(m, property) }
      return r
    }, done: { [logger] reply in
      switch reply {
      case .success(let message):
        var value: Int32 = 0
        done(chime_bus_read_variant_bool(message, &value) >= 0 && value != 0)
      case .failure(let error):
        logger.debug("no desktop do not disturb property", metadata: ["property": "\(interface).\(property)", "error": "\(error)"])
        done(false)
      }
    })
  }

  func desktopQuietSeen(dunst: Bool, kde: Bool) {
    dunstPaused = dunst
    kdeInhibited = kde
    onSignal?(.desktopQuiet(DesktopQuiet.from(dunstPaused: dunst, kdeInhibited: kde)))
  }
}
