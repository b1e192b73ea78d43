import ChimeCore
import Testing

/// How a client says to start chimed when nothing answers: through systemd when Chime's user
/// units are installed, `chimed` otherwise.
@Suite struct DaemonDownAdviceTests {
  @Test func theAdviceFollowsTheUnits() {
    #expect(DaemonDownAdvice.advice(unitsInstalled: true).contains("`systemctl --user enable --now chimed.socket`"))
    #expect(!DaemonDownAdvice.advice(unitsInstalled: true).contains("`chimed`"))
    #expect(DaemonDownAdvice.advice(unitsInstalled: false) == "; is the daemon running? Start it with `chimed`")
  }

  @Test func userUnitDirectoriesFollowXDGAsSystemdDoes() {
    #expect(DaemonDownAdvice.userUnitDirectories(environment: [:], home: "/home/u")
      == ["/home/u/.config/systemd/user", "/etc/systemd/user", "/home/u/.local/share/systemd/user",
          "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"])
    let moved = DaemonDownAdvice.userUnitDirectories(environment: ["XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "relative"], home: "/home/u")
    #expect(moved.first == "/cfg/systemd/user" && moved[2] == "/home/u/.local/share/systemd/user")
  }
}
