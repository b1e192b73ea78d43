import Foundation
import Glibc

/// A private desktop for presentation tests: `Xvfb` on a free display, a private session
/// `dbus-daemon` with its own address (and no services started on demand), and `dunst` (a real
/// org.freedesktop.Notifications server) on both; `dbus-monitor` can record what the server
/// is sent. Everything is started with posix_spawn and killed by pid when released. Needs
/// Debian's xvfb, dbus-daemon, dbus-bin and dunst (scripts/install-deps.sh).
public final class DesktopSession: @unchecked Sendable {
  public let directory = TemporaryDirectory(prefix: "chime-desk")
  public private(set) var display = ""
  public var busAddress: String { "unix:path=" + directory.file("bus") }
  private var xvfb: SpawnedProcess?
  private var bus: SpawnedProcess?
  private var dunst: SpawnedProcess?
  private var monitor: SpawnedProcess?

  static let tools = ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-monitor", "/usr/bin/dbus-send", "/usr/bin/dunst", "/usr/bin/dunstctl"]

  /// What is missing to run a desktop session here, nil when nothing is.
  public static var missingTools: String? {
    let missing = tools.filter { access($0, X_OK) != 0 }
    return missing.isEmpty ? nil : "missing " + missing.joined(separator: ", ") + " (run scripts/install-deps.sh)"
  }

  /// The variables a process needs to reach this desktop and its bus.
  public var environment: [String: String?] { ["DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": busAddress] }

  /// Starts Xvfb, the bus and dunst; throws when one does not come up in time.
  public init() throws {
    if let missing = Self.missingTools { throw DesktopError(missing) }
    try startXvfb()
    let log = directory.file("dbus.log")
    let config = directory.file("bus.conf")
    try Self.busConfig.write(toFile: config, atomically: true, encoding: .utf8)
    bus = try SpawnedProcess("/usr/bin/dbus-daemon", ["--config-file=" + config, "--nofork", "--address=" + busAddress],
                             environment: SpawnedProcess.environment(), stdout: log, stderr: log)
    guard wait(10, { FileManager.default.fileExists(atPath: self.directory.file("bus")) }) else {
      throw DesktopError("dbus-daemon did not create its socket: \(read(log))")
    }
    try startDunst()
  }

  /// A session bus that starts no service on demand: with Debian's session.conf, a call to
  /// org.freedesktop.Notifications while no server runs would start the system's dunst (its
  /// D-Bus service file), unconfigured, and a test of the server being gone would see it back.
  static let busConfig = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:tmpdir=/tmp</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>

    """

  /// A display number nobody holds (other test runs may hold some): Xvfb refuses a taken one.
  private func startXvfb() throws {
    let log = directory.file("xvfb.log")
    var number = 100 + Int(getpid() % 500)
    for _ in 0..<20 {
      number += 1
      if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
        continue
      }
      let child = try SpawnedProcess("/usr/bin/Xvfb", [":\(number)", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                                     environment: SpawnedProcess.environment(), stdout: log, stderr: log)
      if wait(10, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || !child.isRunning }), child.isRunning {
        xvfb = child
        display = ":\(number)"
        return
      }
      child.signal(SIGKILL)
      _ = child.waitForExit(seconds: 5)
    }
    throw DesktopError("no display for Xvfb: \(read(log))")
  }

  /// Starts dunst (again, after `killDunst`), notifications staying until closed, with markup
  /// (so it offers `body-markup`). Its context menu (`dmenu`) is a script that picks the entry
  /// `chooseInContextMenu` asked for.
  public func startDunst() throws {
    let config = directory.file("dunstrc")
    let menu = directory.file("menu.sh")
    try """
      #!/bin/sh
      # dunst's context menu: read the entries, answer the first holding the wanted text.
      want=$(cat "\(directory.file("menu-choice"))" 2>/dev/null)
      entries=$(cat)
      [ -n "$want" ] && printf '%s\\n' "$entries" | grep -F -m1 -- "$want"
      exit 0

      """.write(toFile: menu, atomically: true, encoding: .utf8)
    chmod(menu, 0o755)
    try """
      [global]
          dmenu = \(menu)
          markup = full
          font = Monospace 10
          width = 420
          offset = 20x20
      [urgency_low]
          timeout = 0
      [urgency_normal]
          timeout = 0
      [urgency_critical]
          timeout = 0

      """.write(toFile: config, atomically: true, encoding: .utf8)
    let log = directory.file("dunst.log")
    // Under a loaded machine dunst sometimes gives up at once ("Cannot connect to DBus": the
    // bus's socket file exists a moment before it accepts); a dunst that exited is started
    // again, three times at most.
    for _ in 0..<3 {
      let child = try SpawnedProcess("/usr/bin/dunst", ["-config", config], environment: SpawnedProcess.environment(environment),
                                     stdout: log, stderr: log)
      dunst = child
      if wait(10, { (try? self.dunstctl(["count", "displayed"]).status) == 0 || !child.isRunning }), child.isRunning {
        return
      }
      child.signal(SIGKILL)
      _ = child.waitForExit(seconds: 5)
      dunst = nil
    }
    throw DesktopError("dunst did not come up: \(read(log))")
  }

  /// SIGTERM to dunst, waited for: the notification server is gone, the bus stays.
  public func killDunst() {
    dunst?.signal(SIGTERM)
    _ = dunst?.waitForExit(seconds: 10)
    dunst = nil
  }

  /// Starts recording every org.freedesktop.Notifications message on the bus.
  public func startMonitor() throws {
    let log = directory.file("monitor.log")
    monitor = try SpawnedProcess("/usr/bin/dbus-monitor", ["--address", busAddress, "interface='org.freedesktop.Notifications'", "type='method_return',sender='org.freedesktop.Notifications'"],
                                 environment: SpawnedProcess.environment(), stdout: log, stderr: log)
    // It prints its own NameAcquired once it is listening.
    guard wait(10, { self.read(log).contains("NameAcquired") }) else { throw DesktopError("dbus-monitor did not start: \(read(log))") }
  }

  /// What dbus-monitor recorded so far.
  public var monitorLog: String { read(directory.file("monitor.log")) }

  /// The ids the server answered `Notify` calls with, in order (from the monitor's record).
  public var notifyReplies: [UInt32] {
    let lines = monitorLog.split(separator: "\n", omittingEmptySubsequences: false)
    var ids: [UInt32] = []
    for (i, line) in lines.enumerated() where line.hasPrefix("method return") && i + 1 < lines.count {
      let next = lines[i + 1].trimmingCharacters(in: .whitespaces)
      if next.hasPrefix("uint32 "), let id = UInt32(next.dropFirst(7)) { ids.append(id) }
    }
    return ids
  }

  public func dunstctl(_ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run("/usr/bin/dunstctl", arguments, environment: environment.compactMapValues { $0 }, timeout: 10)
  }

  /// Opens dunst's context menu (`dunstctl context`) and picks the entry holding `text` (an
  /// action's label), as a user choosing it would: dunst sends ActionInvoked for it.
  public func chooseInContextMenu(_ text: String) throws -> ChildProcess.Result {
    try text.write(toFile: directory.file("menu-choice"), atomically: true, encoding: .utf8)
    return try dunstctl(["context"])
  }

  /// Notifications on screen now (nil when dunst does not answer).
  public var displayedCount: Int? {
    guard let run = try? dunstctl(["count", "displayed"]), run.status == 0 else { return nil }
    return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// dunst's history (closed notifications), newest first, each field's value unwrapped.
  public func history() throws -> [[String: Any]] {
    let run = try dunstctl(["history"])
    guard run.status == 0, let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
          let data = object["data"] as? [[[String: Any]]], let list = data.first else {
      throw DesktopError("dunstctl history: \(run.output) \(run.errors)")
    }
    return list.map { entry in entry.compactMapValues { ($0 as? [String: Any])?["data"] } }
  }

  /// Sends a signal on the bus as the notification server would (a synthetic ActionInvoked).
  public func sendSignal(_ member: String, _ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run("/usr/bin/dbus-send", ["--bus=" + busAddress, "--type=signal", "/org/freedesktop/Notifications",
                                                "org.freedesktop.Notifications." + member] + arguments, timeout: 10)
  }

  /// Stops everything started, last first, by pid.
  public func stop() {
    for child in [monitor, dunst, bus, xvfb].compactMap({ $0 }) {
      child.signal(SIGTERM)
      _ = child.waitForExit(seconds: 5)
    }
    monitor = nil
    dunst = nil
    bus = nil
    xvfb = nil
  }

  deinit { stop() }

  private func read(_ file: String) -> String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }

  /// Bounded 10 ms polling for start-up (no test issue recorded: the caller throws).
  private func wait(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    for _ in 0..<Int(seconds * 100) {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }
}

public struct DesktopError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
