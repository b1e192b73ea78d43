import ChimeCore
@testable import ChimeServer
import ChimeSystem
import ChimeTestSupport
import Dispatch
import Foundation
import Glibc
import Logging
import Testing

/// A refused connection waits a bounded time for the peer's first bytes to learn its protocol.
/// A loop that was busy when the wait ran out (its timer and the peer's bytes due in the same
/// turn: libuv runs timers first) still reads the bytes that came in time, so an HTTP/2 peer
/// is refused in HTTP/2, not with a native frame it cannot read.
@Suite(.testTimeLimit) struct RefusalWaitTests {
  /// What the refused connection was given: the HTTP/2 transport (with its refusal) or nothing.
  final class Upgrade: ConnectionUpgrade {
    let seen: Locked<[String]>
    init(_ seen: Locked<[String]>) { self.seen = seen }
    func received(_ bytes: UnsafeRawBufferPointer) { seen.withLock { $0.append("http2 \(bytes.count) bytes") } }
    func finishAll(with error: ChimeError) { seen.withLock { $0.append("finishAll \(error.reason)") } }
    func noteDraining() {}
    func clockChanged() {}
    func closed(_ reason: String) {}
  }

  @Test func bytesThatCameWhileTheLoopWasBusyCountAsInTime() throws {
    let loop = try EventLoop()
    Thread { loop.run() }.start()
    var fds: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    let (mine, peer) = (fds[0], fds[1])
    defer { close(peer) }
    let seen = Locked<[String]>([])
    let holder = Locked<Connection?>(nil)
    let ready = DispatchSemaphore(value: 0), closed = DispatchSemaphore(value: 0)
    // The connection is refused with a 50 ms wait; the loop then sleeps 200 ms, while the peer
    // sends its HTTP/2 preface at once: when the loop wakes, the wait's timer and the bytes are
    // both due.
    _ = loop.execute {
      let socket = StreamSocket.adopting(FileDescriptor(rawValue: mine), loop: loop)!
      let connection = Connection(
        id: 1, socket: socket, maxFrameBytes: 1 << 16, maxQueuedWriteBytes: 1 << 20, logger: .init(label: "test"),
        upgrade: { _, _, refusal in
          seen.withLock { $0.append("upgraded, refused: \(refusal?.reason ?? "no")") }
          return Upgrade(seen)
        },
        makeTimer: { action in LoopTimer(loop: loop, action: action) }, refusalWaitMillis: 50,
        start: { _, _, _ in Issue.record("no call of a refused peer starts") }, onClosed: { _ in closed.signal() })
      holder.withLock { $0 = connection }
      connection.refuse(ChimeError(.tooManyConnections, "full"))
      ready.signal()
      usleep(200_000)
    }
    try #require(ready.wait(timeout: .now() + 10) == .success)
    let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    #expect(write(peer, preface, preface.count) == preface.count)
    #expect(pollUntil(within: 10) { seen.withLock { $0.count } >= 2 })
    #expect(seen.withLock { $0 }.prefix(2) == ["upgraded, refused: TOO_MANY_CONNECTIONS", "http2 24 bytes"])
    // The connection lives until its socket's close callback ran.
    _ = loop.execute { holder.withLock { $0?.close(reason: "test over") } }
    #expect(closed.wait(timeout: .now() + 10) == .success)
    _ = loop.execute {
      holder.withLock { $0 = nil }
      loop.closeWakeup()
    }
  }
}
