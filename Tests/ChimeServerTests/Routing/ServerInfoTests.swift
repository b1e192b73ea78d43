import ChimeSystem
import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// `GetServerInfo` says what is serving: the configured version, this process, when it
/// started (on the daemon's clock), the resolved data directory and the socket.
@Suite(.testTimeLimit) struct ServerInfoTests {
  @Test(arguments: Transport.allCases) func theDaemonSaysWhatItIs(over transport: Transport) async throws {
    let d = try InProcessDaemon { $0.version = "9.9.9 (git 0123456789ab)" }
    let started = d.clock.now()
    d.advance(seconds: 30)
    let info = try await d.client(over: transport).serverInfo()
    #expect(info.version == "9.9.9 (git 0123456789ab)")
    #expect(info.processID == ProcessInfo.processInfo.processIdentifier)
    #expect(info.startedAt == started)
    #expect(info.dataDirectory == URL(fileURLWithPath: d.directory.file("data")).resolvingSymlinksInPath().path)
    #expect(info.socketPath == d.socketPath)
  }
}
