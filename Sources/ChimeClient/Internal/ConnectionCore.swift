import ChimeCore
import Dispatch
import ChimeSystem
import ChimeWire
import Foundation
import Synchronization

/// The socket and the table of calls in flight, shared by the public `ChimeConnection` and the
/// reader thread. The fd is closed only here, in `deinit`, once neither can use it any more.
final class ConnectionCore: Sendable {
  enum Waiter: Sendable {
    case unary(ReplySlot)
    case stream(StreamSink)
  }

  private struct State: Sendable {
    var nextCallID: UInt64 = 1
    var calls: [UInt64: Waiter] = [:]
    /// Set once the connection is down; every later call fails with it.
    var closed: ChimeError?
    /// A status the daemon sent for the whole connection (call id 0) before closing it.
    var farewell: ChimeError?
  }

  let fd: FileDescriptor
  let maxFrameBytes: Int
  private let state = Mutex(State())
  private let writeLock = Mutex(())
  /// Signalled (and kept signalled) once the connection is down.
  private let down = DispatchSemaphore(value: 0)

  init(fd: FileDescriptor, maxFrameBytes: Int) {
    self.fd = fd
    self.maxFrameBytes = maxFrameBytes
  }

  deinit {
    fd.close()
  }

  /// Starts the reader thread, which keeps the core alive until the connection is down.
  func startReader() {
    let thread = Thread { [self] in self.readLoop() }
    thread.name = "chime-reader"
    thread.start()
  }

  // MARK: Calls

  /// Enters a call in the table and returns its id.
  func register(_ waiter: Waiter) throws(ChimeError) -> UInt64 {
    try state.withLock { state throws(ChimeError) in
      if let closed = state.closed { throw closed }
      let id = state.nextCallID
      state.nextCallID += 1
      state.calls[id] = waiter
      return id
    }
  }

  /// Takes a call out of the table; nil when it already finished.
  @discardableResult
  func remove(_ id: UInt64) -> Waiter? {
    state.withLock { $0.calls.removeValue(forKey: id) }
  }

  /// Stops a call still in flight: takes it out of the table and tells the daemon. Does nothing
  /// for a call that already finished.
  func cancel(_ id: UInt64) -> Waiter? {
    guard let waiter = remove(id) else { return nil }
    try? send(FrameEncoder.encode(.cancel(id: id)))
    return waiter
  }

  /// Encodes a call frame, refusing one the daemon would refuse for its size, and an app id
  /// holding a NUL (it would reach the daemon cut short: another app).
  func callFrame(id: UInt64, method: Method, app: String, payload: [UInt8], deadline: Instant?) throws(ChimeError) -> [UInt8] {
    guard !app.utf8.contains(0) else {
      throw ChimeError(.fieldContainsNUL, "the app id contains a NUL character, which cannot be sent", field: "app_id")
    }
    let bytes = FrameEncoder.encode(.call(id: id, CallHeader(method: method.rawValue, appID: app, deadline: deadline), payload: payload))
    guard bytes.count - 4 <= maxFrameBytes else {
      throw ChimeError(.frameTooLarge, "the \(method.rawValue) call is \(bytes.count - 4) bytes; a frame holds at most \(maxFrameBytes)")
    }
    return bytes
  }

  /// Writes bytes to the socket; writers take turns so frames never interleave.
  func send(_ bytes: [UInt8]) throws(ChimeError) {
    if let closed = state.withLock({ $0.closed }) { throw closed }
    try writeLock.withLock { _ throws(ChimeError) in
      do throws(Errno) {
        try UnixSocket.sendAll(fd, bytes)
      } catch {
        // A daemon that refuses the connection (another user, shutting down) sends one final
        // status and hangs up; a write racing that hang-up fails with EPIPE. The reader is about
        // to see the status and the end: wait a moment for it, so the caller learns why.
        if down.wait(timeout: .now() + .seconds(2)) == .success { down.signal() }
        if let closed = state.withLock({ $0.closed }) { throw closed }
        throw ChimeError(.connectionClosed, "cannot write to chimed: \(error)")
      }
    }
  }

  var isClosed: Bool { state.withLock { $0.closed != nil } }

  /// Ends the connection: every call in flight fails with UNAVAILABLE `CONNECTION_CLOSED`, later
  /// calls fail at once, and the reader thread wakes up and exits. Idempotent.
  func terminate(_ why: String) {
    let (waiters, error): ([Waiter], ChimeError?) = state.withLock { state in
      guard state.closed == nil else { return ([], nil) }
      // The daemon's own final status (PERMISSION_DENIED for another user, UNAVAILABLE while
      // shutting down) says more than "closed": calls in flight and later ones get it.
      let error = state.farewell ?? ChimeError(.connectionClosed, "connection to chimed closed: \(why)")
      state.closed = error
      let waiters = Array(state.calls.values)
      state.calls.removeAll()
      return (waiters, error)
    }
    guard let error else { return }
    down.signal()
    UnixSocket.shutdown(fd)
    for waiter in waiters {
      switch waiter {
      case .unary(let call): call.complete(.failure(error))
      case .stream(let sink): sink.finish(error)
      }
    }
  }

  // MARK: Reader thread

  private func readLoop() {
    var decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { buffer.deallocate() }
    var why = "the daemon closed the connection"
    reading: while true {
      let n: Int
      do throws(Errno) {
        n = try UnixSocket.receive(fd, into: buffer)
      } catch {
        why = "read failed: \(error)"
        break reading
      }
      if n == 0 { break }
      decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      do {
        while let frame = try decoder.next() { dispatch(frame) }
      } catch {
        why = "the daemon sent a bad frame: \(error)"
        break reading
      }
    }
    terminate(why)
  }

  private func dispatch(_ frame: Frame) {
    // The daemon sends only replies; a call or cancel from it means nothing here.
    guard case .reply(let id, let payload, let endOfStream, let status) = frame else { return }
    let waiter: Waiter? = state.withLock { state in
      switch state.calls[id] {
      case .unary?:
        return state.calls.removeValue(forKey: id)
      case .stream(let sink)?:
        if endOfStream { state.calls.removeValue(forKey: id) }
        return .stream(sink)
      case nil:
        if id == 0, let status { state.farewell = status }
        return nil
      }
    }
    switch waiter {
    case .unary(let call)?:
      call.complete(status.map { .failure($0) } ?? .success(payload))
    case .stream(let sink)?:
      if !endOfStream {
        if !sink.deliver(payload) { _ = cancel(id) }
      } else {
        // The reply that ends the stream may carry a last message.
        if status == nil, !payload.isEmpty, !sink.deliver(payload) { return }
        sink.finish(status)
      }
    case nil:
      break
    }
  }
}
