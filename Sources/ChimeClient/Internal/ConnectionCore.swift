import ChimeCore
import Dispatch
import ChimeSystem
import ChimeWire
import FoundationEssentials
import Synchronization

/// The socket and the table of calls in flight, shared by the public `ChimeConnection` and
/// whoever reads replies. The fd is closed only here, in `deinit`, once nobody can use it.
///
/// Reading is a role one party holds at a time. A unary call that is the only one in flight in
/// the process reads its own reply on its own thread (`readOwnReply`): it sleeps once in
/// `poll`, and neither a reader thread nor a pool thread has to be woken to hand it the reply.
/// Otherwise (calls in parallel, streams, a reply slower than `ownReadBudget`) the connection's
/// reader thread, started on first need, reads until no call is left, then parks.
final class ConnectionCore: Sendable {
  enum Waiter: Sendable {
    case unary(ReplySlot)
    case stream(StreamSink)
  }

  /// Who reads the socket now.
  private enum Reader: Sendable {
    /// Nobody: no call in flight, or the calls in flight have not asked for a reader yet.
    case nobody
    /// A caller reading its own reply (and dispatching any other it meets).
    case caller
    /// The reader thread.
    case thread
  }

  private struct State: Sendable {
    var nextCallID: UInt64 = 1
    var calls: [UInt64: Waiter] = [:]
    /// Set once the connection is down; every later call fails with it.
    var closed: ChimeError?
    /// A status the daemon sent for the whole connection (call id 0) before closing it.
    var farewell: ChimeError?
    var reader = Reader.nobody
    var threadStarted = false
  }

  /// How long a caller reading its own reply may block its thread (a Swift concurrency pool
  /// thread) before it hands the socket to the reader thread and suspends instead. Long enough
  /// for a durable add on a busy disk; short enough that a reply that depends on other work in
  /// this process (an in-process service extension, a test's fake daemon) is not held up long.
  static let defaultOwnReadBudget = Duration.milliseconds(25)

  /// Unary calls in flight in the whole process, on every connection. A caller reads its own
  /// reply only when it is the only one: then blocking its thread holds up no other call.
  private static let callsInFlight = Atomic<Int>(0)

  let fd: FileDescriptor
  let maxFrameBytes: Int
  let ownReadBudget: Duration
  private let state = Locked(State())
  private let writeLock = Locked(())
  private let input: Input
  /// Signalled each time the reader thread is given the socket, and once when the connection
  /// is down (the thread then exits).
  private let threadWake = DispatchSemaphore(value: 0)
  /// Signalled (and kept signalled) once the connection is down.
  private let down = DispatchSemaphore(value: 0)

  /// The decoder and read buffer: used only by whoever holds the reader role (handing the role
  /// over goes through `state`'s lock, which orders the accesses).
  private final class Input: @unchecked Sendable {
    var decoder: FrameDecoder
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    init(maxFrameBytes: Int) { decoder = FrameDecoder(maxFrameBytes: maxFrameBytes) }
    deinit { buffer.deallocate() }
  }

  init(fd: FileDescriptor, maxFrameBytes: Int, ownReadBudget: Duration = defaultOwnReadBudget) {
    self.fd = fd
    self.maxFrameBytes = maxFrameBytes
    self.ownReadBudget = ownReadBudget
    input = Input(maxFrameBytes: maxFrameBytes)
  }

  deinit {
    fd.close()
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

  /// Counts a unary call in flight; true when it is the only one in the process. Pair with
  /// `leaveCall`.
  static func enterCall() -> Bool {
    callsInFlight.add(1, ordering: .relaxed).oldValue == 0
  }

  static func leaveCall() {
    callsInFlight.subtract(1, ordering: .relaxed)
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
    guard !app.containsNUL else {
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
        // status and hangs up; a write racing that hang-up fails with EPIPE. Have the status
        // and the end read, and wait a moment for them, so the caller learns why.
        ensureReader()
        if down.wait(timeout: .now() + .seconds(2)) == .success { down.signal() }
        if let closed = state.withLock({ $0.closed }) { throw closed }
        throw ChimeError(.connectionClosed, "cannot write to chimed: \(error)")
      }
    }
  }

  var isClosed: Bool { state.withLock { $0.closed != nil } }

  /// True once the reader thread was started (tests).
  var readerThreadStarted: Bool { state.withLock { $0.threadStarted } }

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
    threadWake.signal()
    UnixSocket.shutdown(fd)
    for waiter in waiters {
      switch waiter {
      case .unary(let call): call.complete(.failure(error))
      case .stream(let sink): sink.finish(error)
      }
    }
  }

  // MARK: Reading

  /// Reads replies on the calling thread until `slot` has its outcome or `limit` passes,
  /// dispatching every reply that comes. False, at once, when someone else reads; then (and
  /// when the limit passes) the reader thread takes over if calls are still in flight.
  func readOwnReply(_ slot: ReplySlot, until limit: ContinuousClock.Instant) -> Bool {
    let mine = state.withLock { state in
      guard state.reader == .nobody, state.closed == nil else { return false }
      state.reader = .caller
      return true
    }
    guard mine else { return false }
    var failure: String?
    while !slot.isFinished {
      let left = ContinuousClock.now.duration(to: limit)
      guard left > .zero else { break }
      let (seconds, attoseconds) = left.components
      let millis = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
      guard UnixSocket.waitReadable(fd, millis: millis) else { continue }
      failure = readAvailable()
      if failure != nil { break }
    }
    if let failure { terminate(failure) }
    let wakeThread = state.withLock { state in
      guard !state.calls.isEmpty, state.closed == nil else {
        state.reader = .nobody
        return false
      }
      state.reader = .thread
      return true
    }
    if wakeThread { startOrWakeThread() }
    return slot.isFinished
  }

  /// Makes sure someone reads: the reader thread, when nobody does. A caller reading its own
  /// reply hands over to the thread when it stops, if calls are left.
  func ensureReader() {
    let wakeThread = state.withLock { state in
      guard state.reader == .nobody, state.closed == nil else { return false }
      state.reader = .thread
      return true
    }
    if wakeThread { startOrWakeThread() }
  }

  private func startOrWakeThread() {
    let start = state.withLock { state in
      defer { state.threadStarted = true }
      return !state.threadStarted
    }
    if start {
      // The thread keeps the core alive until the connection is down.
      SystemThread.start(name: "chime-reader") { [self] in self.readerThread() }
    }
    threadWake.signal()
  }

  private func readerThread() {
    while true {
      threadWake.wait()
      if isClosed { return }
      while true {
        // Blocking: the thread holds the reader role, and a reply or the end is due.
        if let failure = readAvailable() {
          terminate(failure)
          return
        }
        let idle = state.withLock { state in
          guard state.calls.isEmpty else { return false }
          state.reader = .nobody
          return true
        }
        if idle { break }
      }
    }
  }

  /// Reads what has arrived (waiting for some) and dispatches every complete frame. Returns why
  /// the connection must end, or nil. Only the holder of the reader role calls it.
  private func readAvailable() -> String? {
    let n: Int
    do throws(Errno) {
      n = try UnixSocket.receive(fd, into: input.buffer)
    } catch {
      return "read failed: \(error)"
    }
    if n == 0 { return isClosed ? "the client closed the connection" : "the daemon closed the connection" }
    input.decoder.append(UnsafeRawBufferPointer(rebasing: input.buffer[0..<n]))
    do {
      while let frame = try input.decoder.next() { dispatch(frame) }
    } catch {
      return "the daemon sent a bad frame: \(error)"
    }
    return nil
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
