import ChimeSystem
import FoundationEssentials

extension DoctorChecks {
  /// The session bus and the notification server on it, named as it names itself.
  func busCheck(_ environment: [String: String]) -> DoctorCheck {
    let runtimeBus = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
    guard !address.isEmpty || runtimeBus.map({ FileManager.default.fileExists(atPath: $0) }) == true else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "no DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus",
                         hint: "deliveries are not shown on the desktop (the log and a present-command still work)")
    }
    guard Subprocess.which("busctl") != nil else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "a session bus is set, busctl not found to check the notification server")
    }
    let result = Shell.capture("busctl --user --json=short --timeout=3 call org.freedesktop.Notifications /org/freedesktop/Notifications "
      + "org.freedesktop.Notifications GetServerInformation")
    guard result.status == 0 else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "no notification server: \(result.output.prefix(200))",
                         hint: "start one (dunst, mako, your desktop's) for desktop notifications")
    }
    guard let server = NotificationServerInfo(busctlJSON: result.output) else {
      return DoctorCheck(name: "session-bus", status: .warn, detail: "the notification server's GetServerInformation answer is not (ssss): \(result.output.prefix(200))")
    }
    return DoctorCheck(name: "session-bus", status: .ok, detail: "notification server: \(server)")
  }
}

/// `GetServerInformation`'s answer (name, vendor, version, spec version), read from
/// `busctl --json=short`: `{"type":"ssss","data":["dunst","knopwob","1.9.0","1.2"]}`.
struct NotificationServerInfo: CustomStringConvertible {
  var name: String
  var vendor: String
  var version: String
  var specVersion: String

  init?(busctlJSON text: String) {
    struct Reply: Decodable {
      var type: String
      var data: [String]
    }
    guard let reply = try? JSONDecoder().decode(Reply.self, from: Data(text.utf8)), reply.type == "ssss", reply.data.count == 4 else {
      return nil
    }
    (name, vendor, version, specVersion) = (reply.data[0], reply.data[1], reply.data[2], reply.data[3])
  }

  /// `dunst 1.9.0 (knopwob), spec 1.2`.
  var description: String {
    "\(name) \(version) (\(vendor)), spec \(specVersion)"
  }
}
