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

  /// A refused connection on a loop thread, with the peer's end of its socket.
  final class Rig: @unchecked Sendable {
    let loop: EventLoop
    let peer: Int32
    let seen = Locked<[String]>([])
    private let holder = Locked<Connection?>(nil)
    private let closed = DispatchSemaphore(value: 0)

    /// `stall`: how long the loop sleeps right after the refusal starts waiting.
    init(waitMillis: UInt64, http2WaitMillis: UInt64, stall: useconds_t = 0) throws {
      loop = try EventLoop()
      let loop = self.loop
      Thread { loop.run() }.start()
      var fds: [Int32] = [0, 0]
      try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
      let mine = fds[0]
      peer = fds[1]
      let ready = DispatchSemaphore(value: 0)
      let (seen, holder, closed) = (seen, holder, closed)
      _ = loop.execute {
        let socket = StreamSocket.adopting(FileDescriptor(rawValue: mine), loop: loop)!
        let connection = Connection(
          id: 1, socket: socket, maxFrameBytes: 1 << 16, maxQueuedWriteBytes: 1 << 20, logger: .init(label: "test"),
          upgrade: { _, _, refusal in
            seen.withLock { $0.append("upgraded, refused: \(refusal?.reason ?? "no")") }
            return Upgrade(seen)
          },
          makeTimer: { action in LoopTimer(loop: loop, action: action) }, refusalWaitMillis: waitMillis,
          http2RequestWaitMillis: http2WaitMillis,
          start: { _, _, _ in Issue.record("no call of a refused peer starts") }, onClosed: { _ in closed.signal() })
        holder.withLock { $0 = connection }
        connection.refuse(ChimeError(.tooManyConnections, "full"))
        ready.signal()
        if stall > 0 { usleep(stall) }
      }
      try #require(ready.wait(timeout: .now() + 10) == .success)
    }

    func send(_ text: String) {
      let bytes = Array(text.utf8)
      #expect(write(peer, bytes, bytes.count) == bytes.count)
    }

    /// Closes the connection and waits for its close callback (it lives until then).
    func finish() {
      _ = loop.execute { [holder] in holder.withLock { $0?.close(reason: "test over") } }
      #expect(closed.wait(timeout: .now() + 10) == .success)
      _ = loop.execute { [holder, loop] in
        holder.withLock { $0 = nil }
        loop.closeWakeup()
      }
      close(peer)
    }
  }

  static let preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

  @Test func bytesThatCameWhileTheLoopWasBusyCountAsInTime() throws {
    // A 50 ms wait; the loop then sleeps 200 ms while the peer sends its HTTP/2 preface at
    // once: when the loop wakes, the wait's timer and the bytes are both due.
    let rig = try Rig(waitMillis: 50, http2WaitMillis: 5000, stall: 200_000)
    rig.send(Self.preface)
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0.count } >= 2 })
    #expect(rig.seen.withLock { $0 }.prefix(2) == ["upgraded, refused: TOO_MANY_CONNECTIONS", "http2 24 bytes"])
    rig.finish()
  }

  /// Once an HTTP/2 peer's preface is in, it has the longer wait for its request: a request
  /// that comes after the first wait would have ended is still answered; without one, the
  /// transport is told to finish (the GOAWAY alone) when the longer wait ends.
  @Test func anHTTP2PeerHasTheLongerWaitForItsRequest() throws {
    let rig = try Rig(waitMillis: 50, http2WaitMillis: 2000)
    rig.send(Self.preface)
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0.count } >= 2 })
    usleep(150_000)  // past the first wait, inside the second
    #expect(!rig.seen.withLock { $0 }.contains("finishAll TOO_MANY_CONNECTIONS"))
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0 }.contains("finishAll TOO_MANY_CONNECTIONS") })
    rig.finish()
  }
}
