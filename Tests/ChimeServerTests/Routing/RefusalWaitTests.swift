import ChimeCore
@testable import ChimeGRPC
@testable import ChimeServer
import ChimeSystem
import ChimeTestSupport
import Dispatch
import Foundation
import Glibc
import Logging
import Testing

/// The listener chooses a connection's protocol once, from its first bytes (`AcceptedSocket`);
/// a refused connection waits a bounded time for them, to refuse in the peer's protocol.
/// A loop that was busy when the wait ran out (its timer and the peer's bytes due in the same
/// turn: libuv runs timers first) still reads the bytes that came in time, so an HTTP/2 peer
/// is refused in HTTP/2, not with a native frame it cannot read.
@Suite(.testTimeLimit) struct RefusalWaitTests {
  /// A stand-in for the HTTP/2 protocol: claims `PRI `, and notes what it was handed.
  final class FakeHTTP2: StreamProtocol {
    let seen: Locked<[String]>
    init(_ seen: Locked<[String]>) { self.seen = seen }
    func claim(_ prefix: [UInt8]) -> ProtocolClaim {
      let preface = Array("PRI ".utf8)
      guard prefix.starts(with: preface.prefix(prefix.count)) else { return .notMine }
      return prefix.count >= preface.count ? .mine : .undecided
    }
    func serve(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8]) -> any StreamConnection {
      seen.withLock { $0.append("served \(prefix.count) bytes") }
      return Noted(seen)
    }
    func refuse(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8], with error: ChimeError) -> any StreamConnection {
      seen.withLock { $0.append("http2 refused: \(error.reason), \(prefix.count) bytes") }
      return Noted(seen)
    }
  }

  /// A stand-in for the default protocol.
  final class FakeDefault: StreamProtocol {
    let seen: Locked<[String]>
    init(_ seen: Locked<[String]>) { self.seen = seen }
    func claim(_ prefix: [UInt8]) -> ProtocolClaim { .mine }
    func serve(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8]) -> any StreamConnection {
      seen.withLock { $0.append("default served") }
      return Noted(seen)
    }
    func refuse(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8], with error: ChimeError) -> any StreamConnection {
      seen.withLock { $0.append("default refused: \(error.reason)") }
      return Noted(seen)
    }
  }

  final class Noted: StreamConnection {
    let seen: Locked<[String]>
    init(_ seen: Locked<[String]>) { self.seen = seen }
    func noteDraining() {}
    func finishAll(with error: ChimeError) { seen.withLock { $0.append("finishAll \(error.reason)") } }
    func clockChanged() {}
    func closed(_ reason: String) {}
  }

  /// A refused accepted socket on a loop thread, with the peer's end of its socket.
  final class Rig: @unchecked Sendable {
    let loop: EventLoop
    let peer: Int32
    let seen = Locked<[String]>([])
    private let holder = Locked<AcceptedSocket?>(nil)
    private let closed = DispatchSemaphore(value: 0)

    /// `stall`: how long the loop sleeps right after the refusal starts waiting. `realHTTP2`:
    /// the gRPC transport's own protocol (with `http2WaitMillis` for the request) instead of
    /// the stand-in.
    init(waitMillis: UInt64, http2WaitMillis: UInt64 = 5000, stall: useconds_t = 0, realHTTP2: Bool = false, refused: Bool = true) throws {
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
        let context = TransportContext(
          loop: loop, configuration: ServerConfiguration(socketPath: "/nonexistent", dataDirectory: "/nonexistent"), router: nil,
          refusal: nil, start: { _, _, _ in Issue.record("no call of a refused peer starts") }, noteActivity: {})
        let http2: any StreamProtocol = realHTTP2 ? GRPCProtocol(context, requestWaitMillis: http2WaitMillis) : FakeHTTP2(seen)
        let connection = AcceptedSocket(
          id: 1, socket: socket, protocols: [http2, FakeDefault(seen)], makeTimer: { action in LoopTimer(loop: loop, action: action) },
          refusalWaitMillis: waitMillis, isDraining: { false }, onClosed: { _ in
            seen.withLock { $0.append("closed") }
            closed.signal()
          })
        holder.withLock { $0 = connection }
        if refused { connection.refuse(ChimeError(.tooManyConnections, "full")) } else { connection.begin() }
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
    let rig = try Rig(waitMillis: 50, stall: 200_000)
    rig.send(Self.preface)
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0.count } >= 1 })
    #expect(rig.seen.withLock { $0 }.first == "http2 refused: TOO_MANY_CONNECTIONS, 24 bytes")
    rig.finish()
  }

  /// A peer that sends nothing in time, or too little to tell, is answered by the default
  /// protocol.
  @Test func aPeerThatSaysTooLittleIsAnsweredByTheDefault() throws {
    let rig = try Rig(waitMillis: 50)
    rig.send("PR")
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0.count } >= 1 })
    #expect(rig.seen.withLock { $0 }.first == "default refused: TOO_MANY_CONNECTIONS")
    rig.finish()
  }

  /// Once an HTTP/2 peer's preface is in, the gRPC transport gives it the longer wait for its
  /// request: the connection is still open after the first wait would have ended, and closes
  /// (after its GOAWAY) when the longer wait ends.
  @Test func anHTTP2PeerHasTheLongerWaitForItsRequest() throws {
    let rig = try Rig(waitMillis: 50, http2WaitMillis: 2000, realHTTP2: true)
    rig.send(Self.preface)
    usleep(300_000)  // past the first wait, inside the second
    #expect(!rig.seen.withLock { $0 }.contains("closed"))
    #expect(pollUntil(within: 10) { rig.seen.withLock { $0 }.contains("closed") })
    rig.finish()
  }

  /// A peer that is served has its protocol chosen once, from its first bytes however they are
  /// cut: the HTTP/2 preface in two reads goes to the HTTP/2 protocol whole, anything else to
  /// the default.
  @Test func theFirstBytesChooseTheProtocolOnce() throws {
    let http2 = try Rig(waitMillis: 50, refused: false)
    http2.send("PR")
    usleep(100_000)
    #expect(http2.seen.withLock { $0 }.isEmpty)
    http2.send(String(Self.preface.dropFirst(2)))
    #expect(pollUntil(within: 10) { http2.seen.withLock { $0.count } >= 1 })
    #expect(http2.seen.withLock { $0 } == ["served 24 bytes"])
    http2.finish()

    let native = try Rig(waitMillis: 50, refused: false)
    native.send("\u{0}\u{0}")
    #expect(pollUntil(within: 10) { native.seen.withLock { $0.count } >= 1 })
    #expect(native.seen.withLock { $0 } == ["default served"])
    native.finish()
  }
}
