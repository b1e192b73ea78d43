import ChimeConfig
import ChimeCore
import ChimeSystem
import Logging

/// The socket side of the daemon: the listener, the connections it accepted (each checked to
/// be of the daemon's own user, then handed to the protocol its first bytes show), and their
/// drain at shutdown. Loop thread only.
final class ConnectionRegistry: ServerTransport {
  private let loop: EventLoop
  private let configuration: ServerConfiguration
  /// The socket's protocols, the default last.
  private let protocols: [any StreamProtocol]
  private var listener: UnixListener?
  private var acceptPauses = 0
  /// Held from before the socket file is touched until it is removed: proof that the file is ours.
  private var socketLock: FileLock?
  /// The socket file at the path is the one this daemon bound.
  private var bound = false
  private var connections: [UInt64: AcceptedSocket] = [:]
  private var nextID: UInt64 = 1
  private var refusing: ChimeError?
  /// At shutdown: closes connections that have not drained in time.
  private var cutoff: LoopTimer?
  /// Run once every connection has closed (`whenDrained`).
  private var onDrained: [() -> Void] = []

  /// `protocols` serve the accepted connections (the default last); `socketLock` is the claim
  /// on the socket path (`claimSocket`), nil when the service manager handed over the listener.
  init(loop: EventLoop, configuration: ServerConfiguration, socketLock: FileLock?, protocols: [any StreamProtocol]) {
    self.loop = loop
    self.configuration = configuration
    self.socketLock = socketLock
    self.protocols = protocols
  }

  /// Claims the socket path before anything else starts: its directory made 0700, the lock
  /// beside it taken, a stale socket file removed. A second daemon stops here and touches
  /// neither the socket nor any store.
  ///
  /// - Throws: UNAVAILABLE `LISTEN_FAILED` naming the daemon that holds the path.
  static func claimSocket(_ path: String) throws(ChimeError) -> FileLock {
    do throws(ChimeLoopError) {
      return try SocketFile.claim(path)
    } catch {
      throw ChimeError(.listenFailed, error.description)
    }
  }

  var count: Int { connections.count }

  /// Binds the claimed socket path (socket 0600) and starts accepting; or accepts on the
  /// inherited listener.
  ///
  /// - Throws: UNAVAILABLE `LISTEN_FAILED` with the reason.
  func listen() throws(ChimeError) {
    let path = configuration.paths.socketPath
    do throws(ChimeLoopError) {
      if let fd = configuration.collaborators.inheritedListener {
        listener = try UnixListener(loop: loop, listening: fd, onPause: { [unowned self] in paused($0) }) { [unowned self] socket in accept(socket) }
        return
      }
      guard socketLock != nil else { throw ChimeLoopError("\(path) was not claimed before listening") }
      listener = try UnixListener(loop: loop, path: path, onPause: { [unowned self] in paused($0) }) { [unowned self] socket in accept(socket) }
      bound = true
      SocketFile.restrict(path)
    } catch {
      throw ChimeError(.listenFailed, error.description)
    }
  }

  /// Says (the first time, then every hundredth) that accepting paused for want of
  /// descriptors: the limit (`ulimit -n`, LimitNOFILE=) is too low for the clients there are.
  private func paused(_ error: Errno) {
    acceptPauses += 1
    guard acceptPauses % 100 == 1 else { return }
    configuration.collaborators.logger.warning("accepting paused: out of descriptors", metadata: [
      "error": "\(error)", "connections": "\(connections.count)", "pauses": "\(acceptPauses)",
      "retry_ms": "\(UnixListener.backoffMillis)",
    ])
  }

  /// The wall clock (or a test's clock) moved: gRPC calls' deadlines are looked at again.
  func clockChanged() {
    for connection in connections.values { connection.clockChanged() }
  }

  /// Stops accepting; connections accepted later (already queued) are told `why`.
  func drain(refusing why: ChimeError) {
    refusing = why
    listener?.close()
    listener = nil
    for connection in connections.values { connection.noteDraining() }
  }

  /// Ends every call with `goodbye`, lets replies drain and closes; a peer that does not read
  /// is cut off after `cutoffMillis`. Removes the socket file.
  func close(with goodbye: ChimeError) { closeAll(with: goodbye) }

  func closeAll(with goodbye: ChimeError, cutoffMillis: UInt64 = 2000) {
    drain(refusing: goodbye)
    for connection in connections.values { connection.finishAll(with: goodbye) }
    if !connections.isEmpty {
      let cutoff = LoopTimer(loop: loop) { [unowned self] in
        for connection in connections.values { connection.close(reason: "daemon stopped") }
        endCutoff()
      }
      cutoff.arm(afterMillis: cutoffMillis)
      self.cutoff = cutoff
    }
  }

  /// Runs `action` once no connection is open (now, if none is): the registry must outlive
  /// the connections, whose close callbacks come back to it.
  func whenDrained(_ action: @escaping () -> Void) {
    guard !connections.isEmpty else { return action() }
    onDrained.append(action)
  }

  /// Removes the socket file, if this daemon made one (an inherited socket's file is the
  /// service manager's; a daemon refused at start-up made none), then lets go of its lock.
  func removeSocketFile() {
    guard let lock = socketLock else { return }
    if bound { try? FileSystem.unlink(configuration.paths.socketPath) }
    lock.release()
    socketLock = nil
  }

  private func endCutoff() {
    cutoff?.close()
    cutoff = nil
  }

  private func accept(_ socket: StreamSocket) {
    let id = nextID
    nextID += 1
    let connection = AcceptedSocket(
      id: id, socket: socket, protocols: protocols, makeTimer: { [loop] action in LoopTimer(loop: loop, action: action) },
      refusalWaitMillis: configuration.hooks.refusalWaitMillis, isDraining: { [unowned self] in refusing != nil },
      onClosed: { [unowned self] connection in
        connections[connection.id] = nil
        if refusing != nil && connections.isEmpty { endCutoff() }
        if connections.isEmpty && !onDrained.isEmpty {
          let actions = onDrained
          onDrained.removeAll()
          for action in actions { action() }
        }
      }
    )
    connections[id] = connection
    let me = ProcessEnvironment.userID
    guard let peer = socket.peerCredentials(), peer.uid == me else {
      configuration.collaborators.logger.warning("refusing peer with another uid", metadata: ["connection": "\(id)"])
      refuse(connection, ChimeError(.peerNotAllowed, "chimed serves only its own user (uid \(me))"))
      return
    }
    if let refusing {
      refuse(connection, refusing)
      return
    }
    guard connections.count <= configuration.limits.maxConnections else {
      configuration.collaborators.logger.warning("refusing a connection past the limit", metadata: ["connections": "\(connections.count - 1)"])
      refuse(connection, ChimeError(.tooManyConnections, "chimed already serves \(connections.count - 1) connections, the most it takes (--max-connections)"))
      return
    }
    identify(connection, socket: socket, pid: peer.pid)
  }

  /// The most refused connections that wait at once for their peer's protocol: past it, a
  /// refused peer is answered natively at once, so a flood of connections holds few sockets.
  static let refusalsWaitingMax = 64

  private func refuse(_ connection: AcceptedSocket, _ error: ChimeError) {
    let waiting = connections.values.lazy.filter(\.isRefused).count
    connection.refuse(error, waiting: waiting < Self.refusalsWaitingMax)
  }

  /// Tells a sandboxed peer (Flatpak, Snap) from a host process before its first call is read,
  /// on the work pool (it reads the peer's /proc entry); a sandboxed peer's calls may then name
  /// only its own app. A peer that cannot be identified is refused.
  private func identify(_ connection: AcceptedSocket, socket: StreamSocket, pid: Int32) {
    let pidfd = pid > 0 ? socket.peerPidFD(pid: pid) : -1
    let process = PeerProcess(procRoot: configuration.hooks.procRoot)
    loop.runBlocking(catching: { () throws(ChimeError) -> PeerSandbox in
      defer { if pidfd >= 0 { FileDescriptor(rawValue: pidfd).close() } }
      guard pid > 0 else { throw ChimeError(.peerNotIdentified, "the peer's process id is not visible from chimed's pid namespace") }
      let facts = process.facts(pid: pid)
      // Read, then check the process is still the one that connected: a pid recycled since
      // would have shown another process's files.
      if pidfd < 0 && PeerProcess.pidfdUnsupported {
        // No pidfds on this kernel: what was read stands, unconfirmed.
        return try PeerSandbox.identify(flatpakInfo: facts.flatpakInfo, cgroup: facts.cgroup)
      }
      guard pidfd >= 0 else {
        throw ChimeError(.peerNotIdentified, "chimed could not hold a pidfd for the peer (pid \(pid)): it has exited, or chimed has no descriptor left")
      }
      guard PeerProcess.isRunning(pidfd: pidfd) else {
        throw ChimeError(.peerNotIdentified, "the peer (pid \(pid)) exited before it could be identified")
      }
      return try PeerSandbox.identify(flatpakInfo: facts.flatpakInfo, cgroup: facts.cgroup)
    }, then: { [weak self, weak connection] result in
      guard let self, let connection, !connection.isClosed else { return }
      switch result {
      case .failure(let error):
        configuration.collaborators.logger.warning("refusing a peer that cannot be identified", metadata: ["connection": "\(connection.id)", "pid": "\(pid)", "why": "\(error.message)"])
        refuse(connection, error)
      case .success(let sandbox):
        if let refusing { return refuse(connection, refusing) }
        connection.confinedApp = sandbox.confinedAppID
        if let app = sandbox.confinedAppID {
          configuration.collaborators.logger.debug("sandboxed peer", metadata: ["connection": "\(connection.id)", "pid": "\(pid)", "app": "\(app)"])
        }
        connection.begin()
      }
    })
  }
}
