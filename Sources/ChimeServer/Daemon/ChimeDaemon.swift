import ChimeConfig
public import ChimeCore
public import ChimeWire
import ChimeSystem
import Dispatch
import Logging

/// The Chime daemon: a libuv loop serving the NotificationCenter over a Unix socket and, for
/// tests, an in-process transport.
///
/// `run()` serves on the calling thread until `shutdown()` (or SIGTERM/SIGINT when
/// `handleSignals` is set); `startInBackground()` serves on a thread of its own and returns once
/// the socket is listening. Shutdown stops accepting, refuses new calls, waits for commits in
/// flight, ends every call and closes the database.
///
/// The process is the caller's: it must ignore SIGPIPE (a peer that hung up is an EPIPE on its
/// connection, not a signal) and create the data directory (`chimed` does both).
public final class ChimeDaemon: Sendable {
  public let configuration: ServerConfiguration
  /// The ways in it serves besides the in-process transport.
  let transports: ServerTransports
  let loop: EventLoop
  /// The running daemon's parts, created and touched on the loop; nil before and after.
  let parts = Locked<LoopBound<DaemonParts>?>(nil)
  private let stopped = Locked(false)
  /// Why a daemon that was serving stopped by itself (a store found damaged after start), to
  /// be thrown by `run()`.
  let failure = Locked<ChimeError?>(nil)
  private let stoppedSignal = DispatchSemaphore(value: 0)
  /// The handles teardown found still open and not closing (`EventLoop.openHandles`): what
  /// keeps a loop from ending, left behind by a part that did not close it.
  let leftOpen = Locked<[String]>([])

  /// A daemon serving `transports` (chimed's: the native framing and gRPC on the socket, the
  /// D-Bus API on the session bus).
  ///
  /// - Throws: UNAVAILABLE `LOOP_FAILED` when libuv cannot make a loop.
  package init(configuration: ServerConfiguration, transports: ServerTransports) throws(ChimeError) {
    self.configuration = configuration
    self.transports = transports
    do {
      loop = try EventLoop()
    } catch {
      throw ChimeError(.loopFailed, error.description)
    }
  }

  /// Opens the store and starts listening; then serves on this thread until shut down.
  /// `onListening` runs once the socket accepts connections.
  ///
  /// - Throws: what start-up failed with (`DATA_DIR_UNAVAILABLE`, the store's errors,
  ///   `LISTEN_FAILED`), after cleaning up.
  public func run(handleSignals: Bool = false, onListening: @escaping @Sendable (String) -> Void = { _ in }) throws(ChimeError) {
    let setupError = Locked<ChimeError?>(nil)
    loop.execute { [self] in
      do throws(ChimeError) {
        try setUp(handleSignals: handleSignals)
        onListening(configuration.paths.socketPath)
      } catch {
        setupError.withLock { $0 = error }
        tearDown()
      }
    }
    loop.run()
    // Normally torn down already; if not, dropping the parts here (the loop has ended, on its
    // thread) still closes the store and lets go of the socket and data-directory locks, so a
    // daemon started next in this process is not refused.
    if parts.withLock({ $0 }) != nil {
      configuration.collaborators.logger.warning("the loop ended before its teardown finished; releasing what it held")
      parts.withLock { $0 = nil }
    }
    stopped.withLock { $0 = true }
    stoppedSignal.signal()
    if let error = setupError.withLock({ $0 }) { throw error }
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Starts serving on a new thread; returns once listening (or throws why it could not).
  public func startInBackground() throws(ChimeError) {
    let ready = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<Void, ChimeError>?>(nil)
    LoopThread { [self] in
      do throws(ChimeError) {
        try run(onListening: { _ in
          outcome.withLock { $0 = .success(()) }
          ready.signal()
        })
      } catch {
        outcome.withLock { $0 = .failure(error) }
        ready.signal()
      }
    }.start()
    ready.wait()
    if case .failure(let error)? = outcome.withLock({ $0 }) { throw error }
  }

  /// Begins a graceful shutdown. Safe from any thread; returns at once.
  public func shutdown() {
    loop.execute { [self] in beginShutdown(reason: "shutdown requested") }
  }

  /// True once the loop has stopped.
  public var isStopped: Bool { stopped.withLock { $0 } }

  /// Why the daemon stopped by itself, if it did (what `run()` throws).
  public var stoppedWith: ChimeError? { failure.withLock { $0 } }

  /// Blocks until the loop has stopped.
  public func waitUntilStopped() {
    if stopped.withLock({ $0 }) { return }
    stoppedSignal.wait()
    stoppedSignal.signal()
  }

  /// Blocks until the loop has stopped or `seconds` have passed; false when it is still running.
  public func waitUntilStopped(seconds: Double) -> Bool {
    if stopped.withLock({ $0 }) { return true }
    guard stoppedSignal.wait(timeout: .now() + seconds) == .success else { return false }
    stoppedSignal.signal()
    return true
  }

  /// What teardown found still open: empty unless a part left a handle open, and then the
  /// loop, and `run()`, do not end. For a daemon that does not stop.
  public var handlesLeftOpen: [String] { leftOpen.withLock { $0 } }

  /// What keeps the loop running (`EventLoop.openHandles`), asked of the loop thread; nil when
  /// it did not answer within 5 s, or no longer takes work (it is tearing down or stopped).
  public func openHandles() -> [String]? {
    let answer = Locked<[String]?>(nil)
    let answered = DispatchSemaphore(value: 0)
    guard loop.execute({ [loop] in
      answer.withLock { $0 = loop.openHandles() }
      answered.signal()
    }) else { return nil }
    guard answered.wait(timeout: .now() + 5) == .success else { return nil }
    return answer.withLock { $0 }
  }

  /// Tells the daemon the wall clock (or an injected test clock) moved: due times and gRPC
  /// calls' deadlines are looked at again now. Safe from any thread.
  public func clockDidChange() {
    onLoop { parts in
      parts.stack?.service.clockChanged()
      parts.registry?.clockChanged()
      for transport in parts.transports { transport.clockChanged() }
    }
  }

  /// Tells the daemon the time zone may have changed (it also looks by itself every 10 s).
  /// Safe from any thread.
  public func timeZoneDidChange() {
    onLoop { $0.stack?.service.checkTimeZone() }
  }

  /// A transport that calls this daemon's router directly, with no socket: the same requests,
  /// replies and statuses as a socket connection. Calls made once the daemon has stopped fail
  /// with UNAVAILABLE `CONNECTION_CLOSED`.
  public func inProcessTransport() -> any CallTransport {
    InProcessTransport(loop: loop) { [self] call, header, payload in
      loop.execute { [self] in startInProcess(call, header: header, payload: payload) }
    }
  }

  /// A snapshot of internal counters, read on the loop (tests, stats). Zeros once stopped.
  public func stats() -> DaemonStats {
    let result = Locked(DaemonStats())
    let done = DispatchSemaphore(value: 0)
    let queued = loop.execute { [self] in
      if let parts = parts.withLock({ $0 })?.value { result.withLock { $0 = parts.stats } }
      done.signal()
    }
    if queued { done.wait() }
    return result.withLock { $0 }
  }

  /// Runs `body` on the loop with the running daemon's parts, if it is running.
  func onLoop(_ body: @escaping @Sendable (DaemonParts) -> Void) {
    loop.execute { [self] in
      if let parts = parts.withLock({ $0 })?.value { body(parts) }
    }
  }
}
