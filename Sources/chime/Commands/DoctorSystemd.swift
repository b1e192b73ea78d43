import ChimeCore
import ChimeSystem
import FoundationEssentials

/// What the user's systemd says about chimed, asked once per doctor run: the systemd check
/// prints it, and every other check's hint follows it (no `systemctl --user` advice without a
/// user systemd, no "chimed is not running" while chimed.service is active).
struct DoctorSystemd {
  /// A user systemd answered `systemctl --user`.
  var reachable: Bool
  var socketEnabled = ""
  var socketActive = ""
  var serviceActive = ""
  /// The path chimed.socket listens on (`Listen=`), empty when not known.
  var socketListens = ""

  static func ask() -> DoctorSystemd {
    guard Subprocess.which("systemctl") != nil, Shell.capture("systemctl --user show-environment").status == 0 else {
      return DoctorSystemd(reachable: false)
    }
    func word(_ command: String, _ unit: String) -> String {
      Shell.capture("systemctl --user \(command) \(unit)").output.trimmingWhitespaceAndNewlines()
    }
    var state = DoctorSystemd(reachable: true)
    state.socketEnabled = word("is-enabled", "chimed.socket")
    state.socketActive = word("is-active", "chimed.socket")
    state.serviceActive = word("is-active", "chimed.service")
    state.socketListens = listenPath(word("show --property=Listen", "chimed.socket"))
    return state
  }

  /// `Listen=/run/user/1000/chime/chimed.sock (Stream)` -> the path.
  static func listenPath(_ property: String) -> String {
    guard property.hasPrefix("Listen=") else { return "" }
    let value = property.dropFirst("Listen=".count)
    return String(value.split(separator: " ").first ?? "")
  }

  var serviceIsActive: Bool { reachable && serviceActive == "active" }
  var socketIsActive: Bool { reachable && socketActive == "active" }

  var check: DoctorCheck {
    guard reachable else {
      return DoctorCheck(name: "systemd", status: .warn, detail: "no user systemd reachable",
                         hint: "without it, start chimed yourself (`chimed`); with it, `make install-user` enables chimed.socket")
    }
    var detail = "chimed.socket \(socketEnabled), \(socketActive); chimed.service \(serviceActive)"
    if !socketListens.isEmpty {
      // Listen= is the unit's setting, there whether or not the socket is up.
      detail += socketIsActive ? "; listening on \(socketListens)" : "; not listening (its path: \(socketListens))"
    }
    guard socketEnabled == "enabled", socketActive == "active" else {
      return DoctorCheck(name: "systemd", status: .warn, detail: detail,
                         hint: "`systemctl --user enable --now chimed.socket` (units from `make install-user`)")
    }
    return DoctorCheck(name: "systemd", status: .ok, detail: detail)
  }

  /// What to do when nothing answers at `path`, in agreement with what systemd says.
  func startHint(socket path: String) -> String {
    guard reachable else {
      return "chimed is not running: start it with `chimed` (no user systemd here starts it on demand)"
    }
    if (socketIsActive || serviceIsActive), !socketListens.isEmpty, socketListens != path {
      return "chimed.socket listens on \(socketListens), not \(path): check --socket, $CHIME_SOCKET and `socket` in chimed.toml"
    }
    if serviceIsActive {
      return "chimed.service is active but nothing answers at \(path): see `systemctl --user status chimed` and `journalctl --user -u chimed`"
    }
    if socketIsActive {
      return "chimed.socket is active but nothing answers at \(path): `systemctl --user restart chimed.socket`, then see `journalctl --user -u chimed`"
    }
    return "chimed is not running: `systemctl --user enable --now chimed.socket` (after `make install-user`) or run `chimed`"
  }

  /// What to do about an invalid chimed.toml. Started by socket activation chimed stays up
  /// with it, answering CONFIG_INVALID; started by hand it exits 78: either way a restart
  /// after the fix reads the file again.
  var configFixHint: String {
    reachable ? "fix the file, then `systemctl --user restart chimed` (`chimed --print-config` checks it)"
      : "fix the file, then start `chimed` again (`chimed --print-config` checks it)"
  }

  /// How to run the installed chimed.
  var restartHint: String {
    reachable ? "restart chimed to run the installed version (`systemctl --user restart chimed`)"
      : "restart chimed to run the installed version (stop it and start `chimed` again)"
  }

  /// Where chimed's own words are.
  var logHint: String {
    reachable ? "its log: `journalctl --user -u chimed` (or `systemctl --user status chimed`)"
      : "its log is chimed's stderr where it was started"
  }
}
