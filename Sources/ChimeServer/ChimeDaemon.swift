import ChimeCore
import ChimeStore
import Glibc
import Logging
import Synchronization
import Dispatch

/// The Chime daemon: a libuv loop serving the NotificationCenter over a Unix socket.
///
/// `run()` serves on the calling thread until `shutdown()` (or SIGTERM/SIGINT when
/// `handleSignals` is set); `startInBackground()` serves on a thread of its own and returns once
/// the socket is listening. Shutdown stops accepting, refuses new calls, waits for commits in
/// flight, closes every connection and then the database.
public final class ChimeDaemon: Sendable {
  public let configuration: ServerConfiguration
  private let loop: EventLoop
  private let state: LoopBound<State>
  private let stopped = Mutex(false)
  private let stoppedSignal = DispatchSemaphore(value: 0)

  private final class State {
    var database: ChimeDatabase?
    var service: NotificationService?
    var router: CallRouter?
    var listener: UnixListener?
    var connections: [UInt64: Connection] = [:]
    var nextConnectionID: UInt64 = 1
    var signals: [SignalWatcher] = []
    var wallClock: WallClockWatcher?
    var zoneTimer: LoopTimer?
    /// What the start-up attachment sweep found.
    var sweep = AttachmentStore.SweepReport()
    var shuttingDown = false
    /// At shutdown: closes connections that have not drained in time.
    var cutoff: LoopTimer?
  }

  public init(configuration: ServerConfiguration) throws {
    self.configuration = configuration
    // libuv writes to sockets with write(2): a peer that hung up must be an EPIPE on that
    // connection, not a signal that kills the daemon.
    signal(SIGPIPE, SIG_IGN)
    do {
      loop = try EventLoop()
    } catch {
      throw ChimeError(.unavailable, reason: "LOOP_FAILED", error.description)
    }
    state = LoopBound(State(), loop: loop)
  }

  /// Opens the store and starts listening; then serves on this thread until shut down.
  /// `onListening` runs once the socket accepts connections.
  public func run(handleSignals: Bool = false, onListening: @escaping @Sendable (String) -> Void = { _ in }) throws {
    let setupError = Mutex<ChimeError?>(nil)
    loop.execute { [self] in
      do {
        try setUp(handleSignals: handleSignals)
        onListening(configuration.socketPath)
      } catch let error as ChimeError {
        setupError.withLock { $0 = error }
        tearDown()
      } catch {
        setupError.withLock { $0 = ChimeError(.unavailable, reason: "STARTUP_FAILED", "\(error)") }
        tearDown()
      }
    }
    loop.run()
    stopped.withLock { $0 = true }
    stoppedSignal.signal()
    if let error = setupError.withLock({ $0 }) { throw error }
  }

  /// Starts serving on a new thread; returns once listening (or throws why it could not).
  public func startInBackground() throws {
    let ready = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>?>(nil)
    let thread = LoopThread { [self] in
      do {
        try run(onListening: { _ in
          outcome.withLock { $0 = .success(()) }
          ready.signal()
        })
      } catch {
        outcome.withLock { $0 = .failure(error) }
        ready.signal()
      }
    }
    thread.start()
    ready.wait()
    if case .failure(let error)? = outcome.withLock({ $0 }) { throw error }
  }

  /// Begins a graceful shutdown. Safe from any thread; returns at once.
  public func shutdown() {
    loop.execute { [self] in beginShutdown(reason: "shutdown requested") }
  }

  /// Blocks until the loop has stopped.
  public func waitUntilStopped() {
    if stopped.withLock({ $0 }) { return }
    stoppedSignal.wait()
    stoppedSignal.signal()
  }

  /// Tells the daemon the wall clock (or an injected test clock) moved: due times are looked
  /// at again now. Safe from any thread.
  public func clockDidChange() {
    loop.execute { [self] in state.value.service?.scheduler.replan() }
  }

  /// Tells the daemon the time zone may have changed (it also looks by itself every 10 s).
  /// Safe from any thread.
  public func timeZoneDidChange() {
    loop.execute { [self] in state.value.service?.checkTimeZone() }
  }

  /// Runs `body` on the loop thread with a snapshot of internal counters (tests, stats).
  public func stats() -> DaemonStats {
    let result = Mutex(DaemonStats())
    let done = DispatchSemaphore(value: 0)
    loop.execute { [self] in
      let s = state.value
      result.withLock {
        $0.connections = s.connections.count
        $0.scheduleWindowKeys = s.service?.scheduler.windowCount ?? 0
        $0.subscribers = s.service?.hub.subscriberCount ?? 0
        $0.attachmentsSwept = s.sweep.removed.count
        $0.attachmentsMissing = s.sweep.missing
        $0.fileLaneRunning = s.service?.fileLaneCounts.running ?? 0
        $0.fileLaneQueued = s.service?.fileLaneCounts.queued ?? 0
      }
      done.signal()
    }
    done.wait()
    return result.withLock { $0 }
  }

  // MARK: loop thread

  private func setUp(handleSignals: Bool) throws {
    let logger = configuration.logger
    let s = state.value
    // One spelling of the data directory for every path stored under it: absolute, symlinks
    // resolved, whatever form --data-dir or $XDG_STATE_HOME gave.
    let dataDirectory = try makePrivateDirectory(configuration.dataDirectory)
    let database = try ChimeDatabase(path: dataDirectory + "/chime.db", logger: logger,
                                     eventRetention: configuration.eventRetention, attachmentQuota: configuration.attachmentQuotaBytes)
    s.database = database
    let attachments = AttachmentStore(dataDirectory: dataDirectory, logger: logger)
    sweep(attachments, database: database)
    let presenter: any Presenter = LogPresenter(logger: logger)
    var schedulerConfiguration = Scheduler.Configuration()
    schedulerConfiguration.windowCapacity = configuration.windowCapacity
    schedulerConfiguration.missedGraceMillis = configuration.missedGraceMillis
    let service = NotificationService(loop: loop, database: database, clock: configuration.clock,
                                      schedulerConfiguration: schedulerConfiguration, presenter: presenter,
                                      timeZone: configuration.timeZone, attachments: attachments,
                                      appsDirectory: configuration.appsDirectory,
                                      fileLaneWidth: configuration.fileLaneWidth,
                                      beforeStaging: configuration.beforeStaging, logger: logger)
    s.service = service
    let router = CallRouter(service: service, clock: configuration.clock, logger: logger)
    s.router = router
    service.start()
    s.wallClock = WallClockWatcher(loop: loop) { [unowned self] in
      configuration.logger.notice("wall clock was set; re-planning due times")
      state.value.service?.checkTimeZone()
      state.value.service?.scheduler.replan()
    }
    // The zone can change without the clock being set (a new /etc/localtime): look every 10 s.
    let zoneTimer = LoopTimer(loop: loop) { [unowned self] in
      let s = state.value
      s.service?.checkTimeZone()
      s.zoneTimer?.arm(afterMillis: 10_000)
    }
    zoneTimer.arm(afterMillis: 10_000)
    s.zoneTimer = zoneTimer

    if handleSignals {
      // Before the socket appears: whoever waits for it may signal us at once.
      // A parent may have started us with these blocked (Foundation's Process passes its
      // thread's mask on): unblock them, or SIGTERM would never reach the loop.
      var set = sigset_t()
      sigemptyset(&set)
      sigaddset(&set, SIGTERM)
      sigaddset(&set, SIGINT)
      pthread_sigmask(SIG_UNBLOCK, &set, nil)
      for signum in [SIGTERM, SIGINT] {
        s.signals.append(SignalWatcher(loop: loop, signal: signum) { [unowned self] sig in
          beginShutdown(reason: sig == SIGTERM ? "SIGTERM" : "SIGINT")
        })
      }
    }
    do {
      try SocketFile.prepare(configuration.socketPath)
      s.listener = try UnixListener(loop: loop, path: configuration.socketPath) { [unowned self] socket in accept(socket) }
      SocketFile.restrict(configuration.socketPath)
    } catch {
      throw ChimeError(.unavailable, reason: "LISTEN_FAILED", error.description)
    }
    logger.info("listening", metadata: ["socket": "\(configuration.socketPath)", "data_dir": "\(dataDirectory)"])
  }

  /// Before serving: store files no row names go (a crash between staging and commit), and
  /// rows whose file vanished are reported. Runs once, before the socket exists.
  private func sweep(_ attachments: AttachmentStore, database: ChimeDatabase) {
    let logger = configuration.logger
    do {
      let report = attachments.sweep(known: try database.attachmentPaths())
      if !report.removed.isEmpty {
        logger.notice("removed attachment files no request holds", metadata: ["count": "\(report.removed.count)"])
      }
      for path in report.missing {
        logger.warning("an attachment file is missing from the store", metadata: ["path": "\(path)"])
      }
      state.value.sweep = report
    } catch {
      logger.error("attachment sweep skipped", metadata: ["error": "\(error)"])
    }
  }

  private func accept(_ socket: StreamSocket) {
    let s = state.value
    let id = s.nextConnectionID
    s.nextConnectionID += 1
    guard let router = s.router else { socket.close(reason: "not ready"); return }
    let connection = Connection(
      id: id, socket: socket, maxFrameBytes: configuration.maxFrameBytes,
      maxQueuedWriteBytes: configuration.maxQueuedWriteBytes, logger: configuration.logger,
      start: { call, header, payload in router.start(call, header: header, payload: payload) },
      onClosed: { [unowned self] connection in
        let s = state.value
        s.connections[connection.id] = nil
        if s.shuttingDown && s.connections.isEmpty {
          s.cutoff?.close()
          s.cutoff = nil
        }
      }
    )
    s.connections[id] = connection
    let me = getuid()
    guard let peer = socket.peerCredentials(), peer.uid == me else {
      configuration.logger.warning("refusing peer with another uid", metadata: ["connection": "\(id)"])
      connection.refuse(ChimeError(.permissionDenied, reason: "PEER_NOT_ALLOWED", "chimed serves only its own user (uid \(me))"))
      return
    }
    if s.shuttingDown {
      connection.refuse(ChimeError(.unavailable, reason: "SHUTTING_DOWN", "chimed is shutting down"))
      return
    }
    connection.begin()
  }

  private func beginShutdown(reason: String) {
    let s = state.value
    guard !s.shuttingDown else { return }
    s.shuttingDown = true
    configuration.logger.info("shutting down", metadata: ["reason": "\(reason)"])
    s.listener?.close()
    s.listener = nil
    s.router?.draining = true
    guard let service = s.service else { tearDown(); return }
    service.stop { [unowned self] in tearDown() }
  }

  private func tearDown() {
    let s = state.value
    s.shuttingDown = true
    s.listener?.close()
    s.listener = nil
    let goodbye = ChimeError(.unavailable, reason: "SHUTTING_DOWN", "chimed is shutting down")
    for connection in s.connections.values { connection.finishAll(with: goodbye) }
    // A peer that does not read could hold the flush forever: cut everyone off after a moment.
    if !s.connections.isEmpty {
      let cutoff = LoopTimer(loop: loop) { [unowned self] in
        let s = state.value
        for connection in s.connections.values { connection.close(reason: "daemon stopped") }
        s.cutoff?.close()
        s.cutoff = nil
      }
      cutoff.arm(afterMillis: 2000)
      s.cutoff = cutoff
    }
    s.wallClock?.close()
    s.wallClock = nil
    s.zoneTimer?.close()
    s.zoneTimer = nil
    for watcher in s.signals { watcher.close() }
    s.signals.removeAll()
    s.service?.scheduler.stop()
    guard let database = s.database else { finishTearDown(); return }
    s.database = nil
    // Closing waits for reads still running on the pool, so it runs there too.
    loop.runBlocking({ database.close() }) { [unowned self] _ in finishTearDown() }
  }

  /// The last step: the store is closed; the socket file goes and the loop may end.
  private func finishTearDown() {
    unlink(configuration.socketPath)
    loop.closeWakeup()
  }

  /// Creates `path` (relative to the working directory unless absolute) and its missing
  /// parents with mode 0700; returns its canonical path.
  private func makePrivateDirectory(_ path: String) throws -> String {
    var absolute = path
    if !path.hasPrefix("/") {
      guard let cwd = getcwd(nil, 0) else {
        throw ChimeError(.unavailable, reason: "DATA_DIR_UNAVAILABLE", "cannot resolve \(path): \(String(cString: strerror(errno)))")
      }
      absolute = String(cString: cwd) + "/" + path
      free(cwd)
    }
    var partial = ""
    for component in absolute.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o700) != 0 && errno != EEXIST {
        throw ChimeError(.unavailable, reason: "DATA_DIR_UNAVAILABLE", "cannot create \(partial): \(String(cString: strerror(errno)))")
      }
    }
    guard let canonical = FileSystem.realPath(absolute) else {
      throw ChimeError(.unavailable, reason: "DATA_DIR_UNAVAILABLE", "cannot resolve \(absolute): \(String(cString: strerror(errno)))")
    }
    return canonical
  }
}

/// Counters read off the loop for tests and the benchmark.
public struct DaemonStats: Sendable, Hashable {
  public var connections = 0
  public var scheduleWindowKeys = 0
  public var subscribers = 0
  /// Start-up sweep: store files removed because no row named them.
  public var attachmentsSwept = 0
  /// Start-up sweep: rows whose file was gone.
  public var attachmentsMissing: [String] = []
  /// Attachment adds staging now, and waiting for their turn.
  public var fileLaneRunning = 0
  public var fileLaneQueued = 0
}
