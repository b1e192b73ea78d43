import ChimeDBus
import ChimeGRPC
import ChimeNativeTransport
import ChimeServer

extension Chimed {
  /// The ways in chimed serves: on its socket gRPC, told by the HTTP/2 client preface, and the
  /// native framing for every other connection (the default, so last); the D-Bus API on the
  /// session bus, where the configuration names one; and the freedesktop presenter's
  /// connection to the notification server, on the same sd-bus driver.
  static var transports: ServerTransports {
    ServerTransports(socket: [GRPCTransport(), NativeTransport()], others: [DBusTransport()], notificationServer: NotificationServer())
  }
}
