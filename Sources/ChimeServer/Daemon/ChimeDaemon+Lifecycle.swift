import ChimeConfig
import ChimeCore
import ChimeWire
import ChimeStore
import ChimeSystem
import Logging

/// Start-up and shutdown, on the loop thread.
extension ChimeDaemon {
  func setUp(handleSignals: Bool) throws(ChimeError) {
    let running = DaemonParts()
    parts.withLock { $0 = LoopBound(running, loop: loop) }
    // Ownership first: a daemon refused here has touched no socket file and no store.
    let socketLock = configuration.collaborators.inheritedListener == nil && servesSocket
      ? try ConnectionRegistry.claimSocket(configuration.paths.socketPath) : nil
    if let refusal = configuration.refuseEveryCall {
      return try setUpRefusing(refusal, running: running, socketLock: socketLock, handleSignals: handleSignals)
    }
    running.dataLock = try Self.lockDataDirectory(configuration.paths.dataDirectory)
    let stack = try ServiceStack(loop: loop, configuration: configuration, notificationServer: transports.notificationServer)
    running.stack = stack
    running.clockWatch = ClockWatch(loop: loop, service: stack.service, logger: configuration.collaborators.logger)
    if handleSignals {
      // Before the socket appears: whoever waits for it may signal us at once.
      running.signals = SignalWatcher.stopSignals.map { signal in
        SignalWatcher(loop: loop, signal: signal.number) { [unowned self] _ in beginShutdown(reason: signal.name) }
      }
    }
    let router = stack.router
    let database = stack.database
    let idleTrim = IdleTrim(loop: loop, quietMillis: configuration.limits.idleTrimMillis) { database.releaseIdleMemory() }
    running.idleTrim = idleTrim
    let context = TransportContext(loop: loop, configuration: configuration, router: router, refusal: nil, start: { call, header, payload in
      idleTrim.noteActivity()
      router.start(call, header: header, payload: payload)
    }, noteActivity: { idleTrim.noteActivity() })
    if servesSocket { try listenOnSocket(context, socketLock: socketLock, running: running) }
    configuration.collaborators.logger.info("listening", metadata: ["socket": "\(configuration.paths.socketPath)"])
    // Serving now: the bus name is asked for only once calls can be answered.
    try startOtherTransports(context, running: running)
    if stack.database.deferredCheck { checkStoreWhileServing(stack.database) }
  }

  /// Serves the socket only to answer every call with `refusal`: no data directory, store,
  /// scheduler or presenter is touched.
  private func setUpRefusing(_ refusal: ChimeError, running: DaemonParts, socketLock: FileLock?,
                             handleSignals: Bool) throws(ChimeError) {
    if handleSignals {
      running.signals = SignalWatcher.stopSignals.map { signal in
        SignalWatcher(loop: loop, signal: signal.number) { [unowned self] _ in beginShutdown(reason: signal.name) }
      }
    }
    let context = TransportContext(loop: loop, configuration: configuration, router: nil, refusal: refusal,
                                   start: { call, _, _ in call.finish(.failure(refusal)) }, noteActivity: {})
    if servesSocket { try listenOnSocket(context, socketLock: socketLock, running: running) }
    configuration.collaborators.logger.warning("listening only to refuse every call", metadata: [
      "socket": "\(servesSocket ? configuration.paths.socketPath : "none")", "reason": "\(refusal.reason)",
      "error": "\(refusal.message)",
    ])
    // The bus name too: when a D-Bus call activated this chimed (through chimed.service or
    // the bus's own Exec=), its caller waits for the name until the bus's activation timeout
    // unless it is taken.
    try startOtherTransports(context, running: running)
  }

  /// Whether this daemon serves a socket: it has protocols to speak there, and is not one that
  /// refuses on the session bus alone.
  private var servesSocket: Bool { !transports.socket.isEmpty && !configuration.refuseOnBusOnly }

  /// Binds the socket (or takes the inherited listener) with the socket's protocols.
  private func listenOnSocket(_ context: TransportContext, socketLock: FileLock?, running: DaemonParts) throws(ChimeError) {
    let registry = ConnectionRegistry(loop: loop, configuration: configuration, socketLock: socketLock,
                                      protocols: transports.socket.map { $0.make(context) })
    running.registry = registry
    try registry.listen()
  }

  /// Starts the transports with ways in of their own (the D-Bus API).
  private func startOtherTransports(_ context: TransportContext, running: DaemonParts) throws(ChimeError) {
    for factory in transports.others {
      guard let transport = factory.make(context) else { continue }
      running.transports.append(transport)
      try transport.listen()
    }
  }

  /// A store too large to check whole before serving is checked now, on a reader; damage
  /// found stops the daemon with STORE_DAMAGED, as a check before serving would have refused
  /// to start (what was committed meanwhile went to the pages SQLite could read and write).
  ///
  /// The check reads every page (about a second of CPU with a million pending) on a thread of
  /// its own at idle priority: on the work pool it took the cores from the fires that came due
  /// while chimed was down (fire lateness p99 0.44-2.8 ms at a million pending, against 0.03
  /// ms when nothing else runs). Shutdown interrupts it (`tearDown`).
  private func checkStoreWhileServing(_ database: ChimeStore.ChimeDatabase) {
    let started = ContinuousClock.now
    let loop = self.loop
    BackgroundThread.start(name: "chimed-check") { [self] in
      let result = Result { () throws(ChimeError) in try database.verifyDeferred() }
      // What the check allocated and freed stays in this thread's malloc arena; it usually
      // ends after calls went quiet, when IdleTrim has already handed memory back.
      HeapTrim.now()
      _ = loop.execute { [self] in storeChecked(result, started: started) }
    }
  }

  private func storeChecked(_ result: Result<Void, ChimeError>, started: ContinuousClock.Instant) {
    guard let running = parts.withLock({ $0 })?.value, !running.shuttingDown else { return }
    switch result {
    case .success:
      configuration.collaborators.logger.info("store checked", metadata: ["took": "\(ContinuousClock.now - started)"])
    case .failure(let error) where error.code == .dataLoss:
      configuration.collaborators.logger.critical("the store is damaged; chimed stops", metadata: ["error": "\(error.message)"])
      failure.withLock { $0 = error }
      beginShutdown(reason: "the store is damaged")
    case .failure(let error):
      configuration.collaborators.logger.error("the store could not be checked", metadata: ["error": "\(error)"])
    }
  }

  func startInProcess(_ call: InProcessCall, header: CallHeader, payload: [UInt8]) {
    if let refusal = configuration.refuseEveryCall { return call.finish(.failure(refusal)) }
    guard let running = parts.withLock({ $0 })?.value, let router = running.stack?.router, !running.shuttingDown else {
      return call.finish(.failure(Self.goodbye))
    }
    let id = ObjectIdentifier(call)
    running.inProcessCalls[id] = call
    call.onFinished = { [unowned running] in running.inProcessCalls[id] = nil }
    running.idleTrim?.noteActivity()
    router.start(call, header: header, payload: payload)
  }

  func beginShutdown(reason: String) {
    guard let running = parts.withLock({ $0 })?.value, !running.shuttingDown else { return }
    running.shuttingDown = true
    configuration.collaborators.logger.info("shutting down", metadata: ["reason": "\(reason)"])
    configuration.collaborators.onStopping?()
    running.registry?.drain(refusing: Self.goodbye)
    for transport in running.transports { transport.drain(refusing: Self.goodbye) }
    guard let stack = running.stack else { return tearDown() }
    stack.drain { [unowned self] in tearDown() }
  }

  /// Ends every call, closes the watchers and the store (on the work pool: closing waits for
  /// reads in flight), then removes the socket file and lets the loop end.
  func tearDown() {
    guard let running = parts.withLock({ $0 })?.value else { return loop.closeWakeup() }
    running.shuttingDown = true
    running.registry?.closeAll(with: Self.goodbye)
    for transport in running.transports { transport.close(with: Self.goodbye) }
    running.transports.removeAll()
    for call in Array(running.inProcessCalls.values) { call.cancel(with: Self.goodbye) }
    running.clockWatch?.close()
    running.clockWatch = nil
    running.idleTrim?.close()
    running.idleTrim = nil
    for watcher in running.signals { watcher.close() }
    running.signals.removeAll()
    let finish = { [self] in
      running.registry?.removeSocketFile()
      running.dataLock?.release()
      running.dataLock = nil
      parts.withLock { $0 = nil }
      // Everything but the wake-up handle is closed or closing by now; what is not never lets
      // the loop end. Said in the log, and kept for tests to print.
      let open = loop.openHandles().filter { !$0.contains("closing") && !$0.hasPrefix("async") && !$0.hasSuffix("in flight") }
      if !open.isEmpty {
        leftOpen.withLock { $0 = open }
        configuration.collaborators.logger.error("a handle was left open at shutdown; chimed will not end", metadata: ["open": "\(open)"])
      }
      loop.closeWakeup()
    }
    guard let stack = running.stack else {
      // Nothing to close but the connections (a daemon refusing every call): wait for them.
      guard let registry = running.registry else { return finish() }
      return registry.whenDrained(finish)
    }
    stack.service.halt()
    let database = stack.database
    database.interruptReads()
    running.stack = nil
    loop.runBlocking({ database.close() }) { _ in finish() }
  }

  /// Takes `DIR/chimed.lock`, so two daemons never share a store whatever sockets they serve.
  ///
  /// - Throws: UNAVAILABLE `DATA_DIR_IN_USE` naming the holder; `DATA_DIR_UNAVAILABLE` when the
  ///   lock file cannot be made.
  static func lockDataDirectory(_ directory: String) throws(ChimeError) -> FileLock {
    do {
      return try FileLock.acquire(directory + "/chimed.lock")
    } catch {
      switch error {
      case .held(let pid):
        throw ChimeError(.dataDirInUse, "the data directory \(directory) is in use by another chimed\(pid.map { " (pid \($0))" } ?? "")")
      case .failed(let errno):
        throw ChimeError(.dataDirUnavailable, "cannot lock the data directory \(directory): \(errno)")
      }
    }
  }

  static var goodbye: ChimeError {
    ChimeError(.shuttingDown, "chimed is shutting down")
  }
}
