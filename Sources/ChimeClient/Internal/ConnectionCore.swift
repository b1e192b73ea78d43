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
/// `poll`, and neither the reply thread nor a pool thread has to be woken to hand it the reply.
/// Otherwise (calls in parallel, streams, a reply slower than `ownReadBudget`) the process's
/// reply thread (`ReplyPoller`) reads the socket each time it is readable, until no call is
/// left.
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
    /// The reply thread, once the socket is readable.
    case poller
  }

  private struct State: Sendable {
    var nextCallID: UInt64 = 1
    var calls: [UInt64: Waiter] = [:]
    /// Set once the connection is down; every later call fails with it.
    var closed: ChimeError?
    /// A status the daemon sent for the whole connection (call id 0) before closing it.
    var farewell: ChimeError?
    var reader = Reader.nobody
    /// Registered with the reply thread (armed at least once).
    var polled = false
  }

  /// How long a caller reading its own reply may block its thread (a Swift concurrency pool
  /// thread) before it hands the socket to the reply thread and suspends instead. Long enough
  /// for a durable add on a busy disk; short enough that a reply that depends on other work in
  /// this process (an in-process service extension, a test's fake daemon) is not held up long.
  static let defaultOwnReadBudget = Duration.milliseconds(25)

  /// Unary calls in flight in the whole process, on every connection. A caller reads its own
  /// reply only when it is the only one: then blocking its thread holds up no other call.
  private static let callsInFlight = Atomic<Int>(0)

  let fd: FileDescriptor
  let maxFrameBytes: Int
  let ownReadBudget: Duration
  /// This connection's name with the reply thread.
  let pollToken = ReplyPoller.newToken()
  private let state = Locked(State())
  private let writeLock = Locked(())
  private let input: Input
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

  /// True once the socket was handed to the reply thread (tests).
  var handedToReplyThread: Bool { state.withLock { $0.polled } }

  /// Ends the connection: every call in flight fails with UNAVAILABLE `CONNECTION_CLOSED`, later
  /// calls fail at once, and the reply thread forgets it. Idempotent.
  func terminate(_ why: String) {
    let (waiters, error, polled): ([Waiter], ChimeError?, Bool) = state.withLock { state in
      guard state.closed == nil else { return ([], nil, false) }
      // The daemon's own final status (PERMISSION_DENIED for another user, UNAVAILABLE while
      // shutting down) says more than "closed": calls in flight and later ones get it.
      let error = state.farewell ?? ChimeError(.connectionClosed, "connection to chimed closed: \(why)")
      state.closed = error
      let waiters = Array(state.calls.values)
      state.calls.removeAll()
      return (waiters, error, state.polled)
    }
    guard let error else { return }
    down.signal()
    // Removed before the descriptor can be closed (`deinit`), whose number may then be reused.
    if polled, case .success(let poller) = ReplyPoller.shared { poller.remove(self) }
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
  /// when the limit passes) the reply thread takes over if calls are still in flight.
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
    let handOver = state.withLock { state in
      guard !state.calls.isEmpty, state.closed == nil else {
        state.reader = .nobody
        return false
      }
      state.reader = .poller
      return true
    }
    if handOver { armPoller() }
    return slot.isFinished
  }

  /// Makes sure someone reads: the reply thread, when nobody does. A caller reading its own
  /// reply hands over to the thread when it stops, if calls are left.
  func ensureReader() {
    let handOver = state.withLock { state in
      guard state.reader == .nobody, state.closed == nil else { return false }
      state.reader = .poller
      return true
    }
    if handOver { armPoller() }
  }

  /// Has the reply thread read the socket once it is readable. Only the holder of the reader
  /// role, having just given it to the poller, calls it.
  private func armPoller() {
    let added = state.withLock { state in
      defer { state.polled = true }
      return state.polled
    }
    do throws(Errno) {
      // The poller holds the core (so its descriptor open) until the connection is down.
      try ReplyPoller.shared.get().arm(self, added: added)
    } catch {
      // ENOENT: removed meanwhile, the connection already down.
      terminate("cannot wait for chimed's replies: \(error)")
    }
  }

  /// On the reply thread, once the socket is readable: reads and dispatches what came, then
  /// arms the socket again while calls are left (else gives up the reader role).
  func readReady() {
    // Taking the lock also orders this read after the last reader's (the role's hand-over).
    if isClosed {
      // Armed by a hand-over that raced `terminate`'s removal: the shut-down socket reports
      // at once, and the poller lets go of the core here (or its descriptor stays open).
      if case .success(let poller) = ReplyPoller.shared { poller.remove(self) }
      return
    }
    if let failure = readAvailable() { return terminate(failure) }
    let again = state.withLock { state in
      guard state.closed == nil else { return false }
      guard !state.calls.isEmpty else {
        state.reader = .nobody
        return false
      }
      return true
    }
    if again { armPoller() }
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
        if !sink.deliver(payload), remove(id) != nil {
          // Not written from here: a write can block, and this thread reads for every connection.
          DispatchQueue.global().async { [self] in try? send(FrameEncoder.encode(.cancel(id: id))) }
        }
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
