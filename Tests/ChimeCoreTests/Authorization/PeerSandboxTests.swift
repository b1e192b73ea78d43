import ChimeCore
import Testing

/// Telling a sandboxed app from a host process, from the files its process shows.
@Suite struct PeerSandboxTests {
  static let hostCgroup = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-terminal.scope\n"

  @Test func aHostProcessDeclaresItsApp() throws {
    let sandbox = try PeerSandbox.identify(flatpakInfo: nil, cgroup: Self.hostCgroup)
    #expect(sandbox == .host && sandbox.confinedAppID == nil)
    try sandbox.check(declared: "org.example.anything")
  }

  @Test func aFlatpakAppIsItsApplicationName() throws {
    let info = "[Application]\nname=org.gnome.Maps\nruntime=runtime/org.gnome.Platform/x86_64/45\n\n[Instance]\ninstance-id=12\n"
    let sandbox = try PeerSandbox.identify(flatpakInfo: info, cgroup: Self.hostCgroup)
    #expect(sandbox == .flatpak(appID: "org.gnome.Maps"))
    try sandbox.check(declared: "org.gnome.Maps")
    let error = #expect(throws: ChimeError.self) { try sandbox.check(declared: "org.example.bank") }
    #expect(error?.has(.appIDMismatch) == true && error?.code == .permissionDenied && error?.field == "app_id")
  }

  @Test(arguments: [
    "0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.firefox.firefox-1c2d3e.scope",
    "0::/user.slice/user-1000.slice/user@1000.service/snap.firefox.hook.configure-99.scope",
    "12:pids:/user.slice/snap.firefox.daemon.service\n0::/user.slice",
  ])
  func aSnapIsItsSnapName(cgroup: String) throws {
    let sandbox = try PeerSandbox.identify(flatpakInfo: nil, cgroup: cgroup)
    #expect(sandbox == .snap(name: "firefox") && sandbox.confinedAppID == "snap.firefox")
    #expect(throws: ChimeError.self) { try sandbox.check(declared: "org.mozilla.firefox") }
  }

  @Test(arguments: [
    ("[Application]\nruntime=x\n", Self.hostCgroup),                 // no name
    ("[Instance]\nname=org.example.app\n", Self.hostCgroup),         // name in another section
    ("[Application]\nname=../../etc\n", Self.hostCgroup),            // not an app id
    ("garbage\u{0}\u{1}", Self.hostCgroup),
  ] as [(String?, String?)])
  func aSandboxThatNamesNoAppIsRefused(info: String?, cgroup: String?) {
    let error = #expect(throws: ChimeError.self) { try PeerSandbox.identify(flatpakInfo: info, cgroup: cgroup) }
    #expect(error?.has(.peerNotIdentified) == true)
  }

  @Test(arguments: ["0::/snap.Bad_Name.app-1.scope", "0::/snap.x.scope", "0::/snap..app-1.scope"])
  func aMalformedSnapScopeIsRefused(cgroup: String) {
    #expect(throws: ChimeError.self) { try PeerSandbox.identify(flatpakInfo: nil, cgroup: cgroup) }
  }

  @Test func anUnreadableCgroupIsRefused() {
    #expect(throws: ChimeError.self) { try PeerSandbox.identify(flatpakInfo: nil, cgroup: nil) }
  }
}
