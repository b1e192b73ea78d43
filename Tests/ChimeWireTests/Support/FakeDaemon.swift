import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeWire
import Foundation
import Glibc
import Synchronization

/// A stand-in daemon on a Unix socket in a fresh temporary directory. It accepts one connection,
/// hands every frame it receives to `frames` (in order), and sends what the test tells it to.
/// Its own thread does the blocking reads, so no test task ever blocks.
final class FakeDaemon: Sendable {
  let socketPath: String
  /// Frames from the client; ends when the client goes away or sends a bad frame.
  let frames: AsyncStream<Frame>
  private let directory: TemporaryDirectory
  private let endpoint: Endpoint

  /// The sockets, shared with the reader thread; closed once neither needs them.
  private final class Endpoint: Sendable {
    let listener: Int32
    let peer = Mutex<Int32>(-1)
    let framingError = Mutex<FramingError?>(nil)

    init(listener: Int32) { self.listener = listener }

    deinit {
      close(listener)
      peer.withLock { if $0 >= 0 { close($0) } }
    }
  }

  init() throws {
    let directory = TemporaryDirectory(prefix: "chime-wire")
    self.directory = directory
    socketPath = directory.socketPath
    let endpoint = Endpoint(listener: try UnixSocket.listen(path: directory.socketPath, backlog: 4).rawValue)
    self.endpoint = endpoint
    let (stream, continuation) = AsyncStream.makeStream(of: Frame.self)
    frames = stream
    Thread {
      defer { continuation.finish() }
      let client = accept(endpoint.listener, nil, nil)
      guard client >= 0 else { return }
      endpoint.peer.withLock { $0 = client }
      var decoder = FrameDecoder()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return }
        decoder.append(Array(buffer[0..<n]))
        do throws(FramingError) {
          while let frame = try decoder.next() { continuation.yield(frame) }
        } catch {
          endpoint.framingError.withLock { $0 = error }
          return
        }
      }
    }.start()
  }

  deinit {
    shutdown(endpoint.listener, Int32(SHUT_RDWR))
    endpoint.peer.withLock { if $0 >= 0 { _ = shutdown($0, Int32(SHUT_RDWR)) } }
  }

  /// The error that ended `frames`, if the client sent a bad frame.
  var framingError: FramingError? { endpoint.framingError.withLock { $0 } }

  func send(_ frame: Frame) throws {
    try sendRaw(FrameEncoder.encode(frame))
  }

  /// Writes bytes to the accepted connection (call only after a frame arrived from it).
  func sendRaw(_ bytes: [UInt8]) throws {
    let fd = endpoint.peer.withLock { $0 }
    precondition(fd >= 0, "no client connected yet")
    do throws(Errno) {
      try UnixSocket.sendAll(FileDescriptor(rawValue: fd), bytes)
    } catch {
      throw ChimeError(.unavailable, reason: "FAKE_DAEMON", "send: \(error)")
    }
  }

  /// Hangs up on the client.
  func closeConnection() {
    endpoint.peer.withLock { if $0 >= 0 { _ = shutdown($0, Int32(SHUT_RDWR)) } }
  }

  /// Answers every call with what `handler` returns, until the client goes away. Use either this
  /// or `frames`, not both.
  func serve(_ handler: @escaping @Sendable (Frame) -> [Frame]) -> Task<Void, Never> {
    Task {
      for await frame in frames {
        for reply in handler(frame) { try? send(reply) }
      }
    }
  }
}
