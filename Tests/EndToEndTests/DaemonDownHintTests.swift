import ChimeTestSupport
import Foundation
import Testing

/// The real `chime` with no chimed at its socket: it says how to start chimed the way this
/// user runs it, through systemd once Chime's user units are installed.
@Suite struct DaemonDownHintTests {
  func pending(home: String, dir: TemporaryDirectory) throws -> String {
    let run = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["pending"],
                                   environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share",
                                                 "CHIME_SOCKET": dir.socketPath])
    #expect(run.status == 69, "\(run.errors)")
    return run.errors
  }

  @Test func theHintNamesSystemctlOnceTheUnitsAreInstalled() throws {
    let dir = TemporaryDirectory()
    let home = dir.file("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    // Only where no unit is installed for every user does the bare `chimed` advice show.
    let systemWide = ["/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
      .contains { FileManager.default.fileExists(atPath: $0 + "/chimed.socket") }
    if !systemWide {
      let bare = try pending(home: home, dir: dir)
      #expect(bare.contains("is the daemon running? Start it with `chimed`"), "\(bare)")
    }
    let units = home + "/.config/systemd/user"
    try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
    try "[Socket]\nListenStream=%t/chime/chimed.sock\n".write(toFile: units + "/chimed.socket", atomically: true, encoding: .utf8)
    let installed = try pending(home: home, dir: dir)
    #expect(installed.contains("Start it with `systemctl --user enable --now chimed.socket`"), "\(installed)")
    #expect(!installed.contains("`chimed`"), "\(installed)")
  }
}
