import ChimeCore
import ChimeSystem
import ChimeTestSupport
import ChimeWire
import Foundation

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
    let listener: FileDescriptor
    let peer = Locked<FileDescriptor?>(nil)
    let framingError = Locked<FramingError?>(nil)
    /// Set by `serve`: the reader thread answers each frame itself instead of yielding it.
    let handler = Locked<(@Sendable (Frame) -> [Frame])?>(nil)
    /// Held while bytes are written: the reader thread and a test's task may both answer.
    let writing = Locked(0)

    func write(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
      let failed: Errno? = writing.withLock { _ in
        do throws(Errno) {
          try UnixSocket.sendAll(fd, bytes)
          return nil
        } catch {
          return error
        }
      }
      if let failed { throw failed }
    }

    init(listener: FileDescriptor) { self.listener = listener }

    deinit {
      listener.close()
      peer.withLock { $0?.close() }
    }
  }

  init() throws {
    let directory = TemporaryDirectory(prefix: "chime-wire")
    self.directory = directory
    socketPath = directory.socketPath
    let endpoint = Endpoint(listener: try UnixSocket.listen(path: directory.socketPath, backlog: 4))
    self.endpoint = endpoint
    let (stream, continuation) = AsyncStream.makeStream(of: Frame.self)
    frames = stream
    Thread {
      defer { continuation.finish() }
      guard let client = try? UnixSocket.accept(endpoint.listener) else { return }
      endpoint.peer.withLock { $0 = client }
      var decoder = FrameDecoder()
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { (try? UnixSocket.receive(client, into: $0)) ?? 0 }
        guard n > 0 else { return }
        decoder.append(Array(buffer[0..<n]))
        do throws(FramingError) {
          while let frame = try decoder.next() {
            if let handler = endpoint.handler.withLock({ $0 }) {
              for reply in handler(frame) { try? endpoint.write(client, FrameEncoder.encode(reply)) }
            } else {
              continuation.yield(frame)
            }
          }
        } catch {
          endpoint.framingError.withLock { $0 = error }
          return
        }
      }
    }.start()
  }

  deinit {
    UnixSocket.shutdown(endpoint.listener)
    endpoint.peer.withLock { $0.map(UnixSocket.shutdown) }
  }

  /// The error that ended `frames`, if the client sent a bad frame.
  var framingError: FramingError? { endpoint.framingError.withLock { $0 } }

  func send(_ frame: Frame) throws {
    try sendRaw(FrameEncoder.encode(frame))
  }

  /// Writes bytes to the accepted connection (call only after a frame arrived from it).
  func sendRaw(_ bytes: [UInt8]) throws {
    guard let fd = endpoint.peer.withLock({ $0 }) else { preconditionFailure("no client connected yet") }
    do throws(Errno) {
      try endpoint.write(fd, bytes)
    } catch {
      throw ChimeError(.unavailable, reason: "FAKE_DAEMON", "send: \(error)")
    }
  }

  /// Hangs up on the client.
  func closeConnection() {
    endpoint.peer.withLock { $0.map(UnixSocket.shutdown) }
  }

  /// Answers every call with what `handler` returns, until the client goes away; the task ends
  /// then. Use either this or `frames`, not both. The reader thread answers what arrives once
  /// this is called, so a test process whose cooperative threads are all held (tests that
  /// poll synchronously) still gets its replies; the task answers what arrived before.
  func serve(_ handler: @escaping @Sendable (Frame) -> [Frame]) -> Task<Void, Never> {
    endpoint.handler.withLock { $0 = handler }
    return Task {
      for await frame in frames {
        for reply in handler(frame) { try? send(reply) }
      }
    }
  }
}
