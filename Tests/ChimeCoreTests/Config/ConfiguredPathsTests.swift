import ChimeCore
import Testing

/// Where the socket, the data and the apps' layouts go, from a given environment.
@Suite struct ConfiguredPathsTests {
  @Test func socketPath() {
    let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(SocketPath.resolve("/x.sock", environment: ["CHIME_SOCKET": "/y.sock"], uid: 7) == "/x.sock")
    #expect(SocketPath.resolve(nil, environment: runtime.merging(["CHIME_SOCKET": "/y.sock"]) { $1 }, uid: 7) == "/y.sock")
    #expect(SocketPath.resolve("", environment: runtime, uid: 7) == "/run/user/1000/chime/chimed.sock")
    #expect(SocketPath.resolve(nil, environment: ["XDG_RUNTIME_DIR": "", "CHIME_SOCKET": ""], uid: 7) == "/tmp/chime-7/chimed.sock")
  }

  @Test func dataAndAppsDirectories() {
    let home = "/home/ada"
    #expect(DataDirectory.resolve("/d", environment: ["XDG_STATE_HOME": "/s"], home: home) == "/d")
    #expect(DataDirectory.resolve(nil, environment: ["XDG_STATE_HOME": "/s"], home: home) == "/s/chime")
    #expect(DataDirectory.resolve(nil, environment: [:], home: home) == "/home/ada/.local/state/chime")
    #expect(AppsDirectory.resolve("/a", environment: ["XDG_DATA_HOME": "/x"], home: home) == "/a")
    #expect(AppsDirectory.resolve(nil, environment: ["XDG_DATA_HOME": "/x"], home: home) == "/x/chime/apps")
    #expect(AppsDirectory.resolve("", environment: ["XDG_DATA_HOME": ""], home: home) == "/home/ada/.local/share/chime/apps")
  }
}
