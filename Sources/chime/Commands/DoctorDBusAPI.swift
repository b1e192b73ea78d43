import ChimeSystem
import FoundationEssentials

extension DoctorChecks {
  /// chimed's D-Bus API on the session bus: served now, activatable (the service file is
  /// installed, so the first call starts chimed), or off.
  func dbusAPICheck(_ environment: [String: String]) -> DoctorCheck {
    let name = "io.github.chime.Chime1"
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
    guard !address.isEmpty || runtimeBus.map({ FileManager.default.fileExists(atPath: $0) }) == true else {
      return DoctorCheck(name: "dbus-api", status: .warn, detail: "no session bus: the D-Bus API (\(name)) is off",
                         hint: "desktop apps reach chimed over D-Bus only in a session with a bus; the socket is unaffected")
    }
    guard Subprocess.which("busctl") != nil else {
      return DoctorCheck(name: "dbus-api", status: .warn, detail: "busctl not found to check \(name)")
    }
    let driver = "busctl --user --timeout=3 call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus"
    let owned = Shell.capture("\(driver) NameHasOwner s \(name)")
    if owned.status == 0, owned.output.contains("true") {
      let pid = Shell.capture("\(driver) GetConnectionUnixProcessID s \(name)").output
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).last.map(String.init) ?? "?"
      return DoctorCheck(name: "dbus-api", status: .ok, detail: "\(name) is served (pid \(pid))")
    }
    let activatable = Shell.capture("\(driver) ListActivatableNames")
    if activatable.status == 0, activatable.output.contains("\"\(name)\"") {
      return DoctorCheck(name: "dbus-api", status: .ok, detail: "\(name) is activatable: the first call starts chimed")
    }
    return DoctorCheck(name: "dbus-api", status: .warn, detail: "\(name) is not on the session bus and not activatable",
                       hint: "`make install-user` installs its D-Bus service file; a running chimed takes the name when it finds the bus")
  }
}
