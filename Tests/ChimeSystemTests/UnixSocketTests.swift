import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Testing

/// The one Unix-socket helper: no path is cut short, refusals say why.
@Suite(.testTimeLimit) struct UnixSocketTests {
  let dir = TemporaryDirectory()

  /// `/tmp/chime-XXXXXX/` followed by `s` repeated up to `bytes` in all.
  func path(ofBytes bytes: Int) -> String {
    let prefix = dir.path + "/"
    return prefix + String(repeating: "s", count: bytes - prefix.utf8.count)
  }

  @Test func listenAndConnectMeet() throws {
    let path = dir.socketPath
    let listener = try UnixSocket.listen(path: path, backlog: 4)
    defer { listener.close() }
    let client = try UnixSocket.connect(path: path)
    defer { client.close() }
    let peer = try UnixSocket.accept(listener)
    defer { peer.close() }
    try UnixSocket.sendAll(client, [1, 2, 3])
    var buffer = [UInt8](repeating: 0, count: 3)
    var received = 0
    while received < 3 {
      let n = try buffer.withUnsafeMutableBytes { raw throws(Errno) in
        try UnixSocket.receive(peer, into: UnsafeMutableRawBufferPointer(rebasing: raw[received...]))
      }
      guard n > 0 else { break }
      received += n
    }
    #expect(buffer == [1, 2, 3])
    UnixSocket.shutdown(client)
    #expect(try buffer.withUnsafeMutableBytes { raw throws(Errno) in try UnixSocket.receive(peer, into: raw) } == 0, "the end")
    #expect(UnixSocket.isAccepting(path: path))
  }

  @Test func aPathOf107BytesIsUsedWhole() throws {
    let path = path(ofBytes: 107)
    let listener = try UnixSocket.listen(path: path)
    defer { listener.close() }
    #expect(FileSystem.lstatus(path)?.kind == .socket, "the socket file has the full name")
    try UnixSocket.connect(path: path).close()
  }

  @Test func aLongerPathIsRefusedNotCut() throws {
    let path = path(ofBytes: 108)
    for error in [caught { _ = try UnixSocket.connect(path: path) }, caught { _ = try UnixSocket.listen(path: path) }] {
      #expect(error?.code == .invalidArgument)
      #expect(error?.reason == "SOCKET_PATH_TOO_LONG")
      #expect(error?.message == "socket path \(path) is 108 bytes; a Unix socket path holds at most 107")
    }
    #expect(FileSystem.lstatus(String(path.utf8.prefix(107))!) == nil, "nothing was bound under the cut name")
    #expect(!UnixSocket.isAccepting(path: path))
  }

  @Test func emptyAndNULPathsAreInvalid() {
    for path in ["", "/tmp/a\u{0}b"] {
      #expect(caught { _ = try UnixSocketAddress(path) }?.reason == "INVALID_SOCKET_PATH")
    }
  }

  @Test func nothingListeningIsDaemonUnavailable() {
    let error = caught { _ = try UnixSocket.connect(path: dir.socketPath) }
    #expect(error?.code == .unavailable)
    #expect(error?.reason == "DAEMON_UNAVAILABLE")
    #expect(error?.message.hasPrefix("cannot connect to chimed at \(dir.socketPath): No such file or directory") == true)
  }

  @Test func aTakenPathCannotBeListenedOn() throws {
    let listener = try UnixSocket.listen(path: dir.socketPath)
    defer { listener.close() }
    let error = caught { _ = try UnixSocket.listen(path: dir.socketPath) }
    #expect(error?.reason == "SOCKET_LISTEN_FAILED")
    #expect(error?.message == "cannot listen on \(dir.socketPath): Address already in use")
  }

  private func caught(_ body: () throws -> Void) -> ChimeError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ChimeError
    }
  }
}
