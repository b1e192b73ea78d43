/// What a client adds when nothing answers at chimed's socket: how to start chimed the way this
/// machine runs it. With Chime's user units installed (`make install-user`, `make install`)
/// chimed is started by systemd through chimed.socket, and a `chimed` started by hand would
/// race the unit for the socket; without them, `chimed` is how. Pure: which unit files exist is
/// given (ChimeSystem looks).
public enum DaemonDownAdvice {
  /// The socket unit whose presence means systemd starts chimed.
  public static let socketUnit = "chimed.socket"

  /// The directories systemd reads user units from, where Chime's units may be installed
  /// (systemd.unit(5), "User Unit Search Path"): `$XDG_CONFIG_HOME/systemd/user` (else
  /// `~/.config/systemd/user`), `/etc/systemd/user`, `$XDG_DATA_HOME/systemd/user` (else
  /// `~/.local/share/systemd/user`), `/usr/local/lib/systemd/user`, `/usr/lib/systemd/user`.
  public static func userUnitDirectories(environment: [String: String], home: String) -> [String] {
    func xdg(_ variable: String, _ fallback: String) -> String {
      if let value = environment[variable], value.hasPrefix("/") { return value }
      return home + fallback
    }
    return [xdg("XDG_CONFIG_HOME", "/.config") + "/systemd/user", "/etc/systemd/user",
            xdg("XDG_DATA_HOME", "/.local/share") + "/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
  }

  /// The end of the "cannot connect" message: `; is the daemon running? Start it with …`.
  public static func advice(unitsInstalled: Bool) -> String {
    unitsInstalled
      ? "; is the daemon running? Start it with `systemctl --user enable --now chimed.socket` (its user units are installed)"
      : "; is the daemon running? Start it with `chimed`"
  }
}
