/// Where chimed serves its D-Bus API (`ServerConfiguration.dbus`; nil: not at all).
public struct DBusConfiguration: Sendable {
  /// The bus's address; nil: the session bus (`DBUS_SESSION_BUS_ADDRESS`, else the user's default).
  public var address: String?
  /// The well-known name taken once chimed serves.
  public var name: String = "io.github.chime.Chime1"

  public init(address: String? = nil) {
    self.address = address
  }
}
