import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// A sandboxed app may act only as itself: the daemon reads the peer's process under a fake
/// `/proc` tree (the connecting test process's pid), as it reads the real one in production.
@Suite(.testTimeLimit) struct SandboxedPeerTests {
  /// A fake /proc with this process as a Flatpak app, a Snap, or a host process.
  func fakeProc(_ dir: TemporaryDirectory, flatpak: String? = nil, cgroup: String = "0::/user.slice/app.slice/term.scope\n") throws -> String {
    let root = dir.file("proc")
    let me = "\(root)/\(getpid())"
    try FileManager.default.createDirectory(atPath: me + "/root", withIntermediateDirectories: true)
    try cgroup.write(toFile: me + "/cgroup", atomically: true, encoding: .utf8)
    if let flatpak { try "[Application]\nname=\(flatpak)\n".write(toFile: me + "/root/.flatpak-info", atomically: true, encoding: .utf8) }
    return root
  }

  @Test func aFlatpakAppActsOnlyAsItself() async throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir, flatpak: "org.example.maps")
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    let own = try d.client(app: "org.example.maps", over: .socket)
    _ = try await own.add(.tea("route"))
    #expect(try await own.allPending().map(\.request.identifier) == ["route"])
    let posing = try d.client(app: "org.example.bank", over: .socket)
    let error = await caughtError { _ = try await posing.allPending() }
    #expect(error?.reason == "APP_ID_MISMATCH" && error?.code == .permissionDenied, "\(String(describing: error))")
    #expect(error?.message.contains("org.example.maps") == true)
    // In-process callers are the host's and act as declared.
    _ = try await d.client(app: "org.example.bank", over: .inProcess).allPending()
  }

  /// The user's own settings are not a sandboxed app's to change: another app's settings and
  /// Do Not Disturb are refused to it, and stay as they were; reading them stays open.
  @Test func aSandboxedAppMayNotChangeTheUsersSettings() async throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir, flatpak: "org.example.maps")
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    let host = try d.client(app: "org.example.host", over: .inProcess)
    _ = try await host.setDoNotDisturb(DoNotDisturbChange(manual: .on(until: nil)))
    let sandboxed = try d.client(app: "org.example.maps", over: .socket)
    let dnd = await caughtError { _ = try await sandboxed.setDoNotDisturb(DoNotDisturbChange(manual: .off)) }
    #expect(dnd?.reason == "USER_SETTING_FROM_SANDBOX" && dnd?.code == .permissionDenied, "\(String(describing: dnd))")
    let settings = await caughtError { _ = try await sandboxed.setAppSettings(AppSettingsChange(appID: "org.example.bank", status: .denied)) }
    #expect(settings?.reason == "USER_SETTING_FROM_SANDBOX", "\(String(describing: settings))")
    let apps = await caughtError { _ = try await sandboxed.listKnownApps() }
    #expect(apps?.reason == "USER_SETTING_FROM_SANDBOX", "the user's list of apps: \(String(describing: apps))")
    #expect(try await sandboxed.doNotDisturb().status.active, "still on, and readable from the sandbox")
  }

  @Test func aSnapActsAsSnapName() async throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir, cgroup: "0::/user.slice/user@0.service/app.slice/snap.spotify.spotify-abc123.scope\n")
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    _ = try await d.client(app: "snap.spotify", over: .socket).allPending()
    let error = await caughtError { _ = try await d.client(app: "com.spotify.Client", over: .socket).allPending() }
    #expect(error?.reason == "APP_ID_MISMATCH")
  }

  @Test func aHostProcessDeclaresAnyApp() async throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir)
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    for app in ["org.example.one", "org.example.two"] {
      #expect(try await d.client(app: app, over: .socket).allPending().isEmpty)
    }
  }

  @Test func aPeerThatCannotBeIdentifiedIsRefused() async throws {
    let dir = TemporaryDirectory()
    let empty = dir.file("emptyproc")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = empty }
    let error = await caughtError { _ = try await d.client(app: "org.example.app", over: .socket).allPending() }
    #expect(error?.reason == "PEER_NOT_IDENTIFIED" && error?.code == .permissionDenied, "\(String(describing: error))")
  }
}
