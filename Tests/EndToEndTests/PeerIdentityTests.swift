import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// chimed serves only its own user. A process of another user that reaches the socket (here its
/// modes are opened up on purpose) is told PERMISSION_DENIED `PEER_NOT_ALLOWED`, even when its
/// write races the daemon hanging up (not "Broken pipe").
@Suite(.testTimeLimit) struct PeerIdentityTests {
  static let canSwitchUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

  @Test(.enabled(if: canSwitchUser, "needs root and setpriv to run chime as another user"))
  func anotherUserIsToldPermissionDeniedNotBrokenPipe() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    // Let the other user reach the socket and the binary; the daemon's own check must refuse it.
    chmod(dir.path, 0o755)
    chmod(dir.socketPath, 0o666)
    let chime = DaemonProcess.binDirectory + "/chime"
    let readable = (try? FileManager.default.attributesOfItem(atPath: chime)[.posixPermissions] as? Int).map { $0 & 0o005 == 0o005 } ?? false
    try #require(readable, "the built chime must be executable by others for this test")
    for _ in 0..<5 {
      let result = try ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", chime,
                                                           "pending", "--socket", dir.socketPath, "--app", "org.example.other"])
      #expect(result.status != 0)
      #expect(result.errors.contains("PERMISSION_DENIED") && result.errors.contains("PEER_NOT_ALLOWED"), "\(result.errors)")
      #expect(!result.errors.contains("Broken pipe"), "\(result.errors)")
    }
    #expect(daemon.isRunning)
  }
}
