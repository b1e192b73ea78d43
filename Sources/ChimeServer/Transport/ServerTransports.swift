/// The ways in a daemon serves, chosen by whoever starts it (chimed assembles the transport
/// modules; tests pick what they drive). The in-process transport is always there.
package struct ServerTransports: Sendable {
  /// The protocols spoken on the socket, in the order they are offered a connection's first
  /// bytes; the last one is the default, which serves whatever no other claims (the native
  /// framing). Empty: no socket is bound.
  package var socket: [any StreamProtocolFactory]
  /// Transports with ways in of their own (the D-Bus API on the session bus).
  package var others: [any TransportFactory]
  /// Connects the freedesktop presenter to the desktop's notification server; nil: that
  /// presenter has no way to the desktop and reports each delivery as not shown.
  package var notificationServer: (any NotificationServerConnector)?

  package init(socket: [any StreamProtocolFactory], others: [any TransportFactory] = [],
               notificationServer: (any NotificationServerConnector)? = nil) {
    self.socket = socket
    self.others = others
    self.notificationServer = notificationServer
  }
}
