package import ChimeCore
package import Logging

/// The freedesktop presenter's connection to the desktop's notification server
/// (org.freedesktop.Notifications on the session bus). The service owns this shape; a transport
/// module makes the connection (ChimeDBus, whose one sd-bus driver also serves the D-Bus API),
/// and chimed hands its maker in (`ServerTransports.notificationServer`). Every call is
/// asynchronous and answers on the loop. Loop thread only.
package protocol NotificationServerLink: AnyObject {
  var isOpen: Bool { get }
  /// Called once when the connection is lost (not after `close()`).
  var onDisconnect: (() -> Void)? { get set }
  var onSignal: ((NotificationServerSignal) -> Void)? { get set }
  /// `GetCapabilities`.
  func capabilities(_ done: @escaping (Result<[String], NotificationServerError>) -> Void)
  /// `Notify`; answers the server's id for the notification.
  func notify(_ plan: DesktopNotificationPlan, _ done: @escaping (Result<UInt32, NotificationServerError>) -> Void)
  /// `CloseNotification`; errors (already closed) are only logged.
  func closeNotification(_ id: UInt32)
  /// Follows the server's own Do Not Disturb (dunst's `paused`, KDE's `Inhibited`): each
  /// reading comes as `.desktopQuiet`, now and whenever it or the server changes.
  func followDesktopQuiet()
  /// Closes the connection; no callback runs afterwards.
  func close()
}

/// What the notification server tells the presenter.
package enum NotificationServerSignal {
  case actionInvoked(id: UInt32, key: String)
  case closed(id: UInt32, reason: UInt32)
  /// org.freedesktop.Notifications has a new owner (empty: none): another server, or none.
  case serverChanged(owner: String)
  /// The server's own Do Not Disturb, read or changed (nil: neither paused nor inhibited);
  /// only after `followDesktopQuiet()`.
  case desktopQuiet(DesktopQuiet?)
}

/// Why a call to the notification server (or connecting to its bus) failed.
package struct NotificationServerError: Error, CustomStringConvertible {
  package var description: String

  package init(description: String) {
    self.description = description
  }
}

/// Connects the presenter to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else the user's
/// default); the handshake finishes on the loop.
package protocol NotificationServerConnector: Sendable {
  /// - Throws: why there is no connection (no session bus).
  func connect(loop: EventLoop, logger: Logger) throws(NotificationServerError) -> any NotificationServerLink
}
