import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// libuv's uv_pipe_bind would cut a socket path over 107 bytes and listen somewhere else; the
/// daemon refuses such a path instead, in the words the clients use.
@Suite(.testTimeLimit) struct ListenerPathTests {
  @Test func aSocketPathOver107BytesIsRefusedNotCut() throws {
    let dir = TemporaryDirectory()
    let long = dir.path + "/" + String(repeating: "s", count: 108 - dir.path.utf8.count - 1)
    #expect(long.utf8.count == 108)
    do {
      _ = try InProcessDaemon(directory: dir) { $0.paths.socketPath = long }
      Issue.record("chimed started on a 108-byte socket path")
    } catch let error as ChimeError {
      #expect(error.reason == "LISTEN_FAILED")
      #expect(error.message == "socket path \(long) is 108 bytes; a Unix socket path holds at most 107")
    }
    #expect(!FileManager.default.fileExists(atPath: String(long.dropLast())), "nothing listens under the cut name")
  }
}
