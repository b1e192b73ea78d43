import ChimeConfig
import ChimeCore
import ChimeServer
import ChimeSystem
internal import CSystemd
import Logging

/// chimed's API on the session bus: exports the interface (`DBusNames`) at its object path,
/// takes the well-known name once serving, identifies each calling connection from its
/// credentials (the same sandbox rules as the socket), translates calls for the router and
/// answers them, and sends each app's signals to that app's connections. Losing the bus is
/// logged and retried; it never stops chimed. Loop thread only.
final class DBusFace {
  let loop: EventLoop
  /// Runs the calls; nil when every call is refused with `refusal`.
  let router: CallRouter?
  /// The one answer to every call of a chimed that serves nothing (its configuration is
  /// invalid): the name is still taken, so a D-Bus caller hears why at once instead of waiting
  /// for activation to time out.
  let refusal: ChimeError?
  let configuration: ServerConfiguration
  let bus: DBusConfiguration
  let logger: Logger
  var link: BusConnection?
  /// The userdata of the exported vtable (its handlers reach `self` through it).
  private var object: UnsafeMutablePointer<chime_dbus_object>?
  private var retry: LoopTimer?
  private var retryMillis: UInt64 = 1000
  private var stopping = false
  var peers: [String: DBusPeer] = [:]
  var signals: [String: DBusAppSignals] = [:]
  /// Run for each call taken (the daemon's idle tracking).
  var onCall: () -> Void = {}

  init(loop: EventLoop, router: CallRouter, configuration: ServerConfiguration, bus: DBusConfiguration) {
    self.loop = loop
    self.router = router
    refusal = nil
    self.configuration = configuration
    self.bus = bus
    logger = configuration.collaborators.logger
  }

  /// A face that answers every method call with `refusal` (properties and introspection are
  /// still answered from the interface's table).
  init(loop: EventLoop, refusing refusal: ChimeError, configuration: ServerConfiguration, bus: DBusConfiguration) {
    self.loop = loop
    router = nil
    self.refusal = refusal
    self.configuration = configuration
    self.bus = bus
    logger = configuration.collaborators.logger
  }

  /// Connects, exports the interface and asks for the name. With no bus to reach the face is
  /// off: one line says so, and nothing retries.
  func start() {
    do throws(ChimeError) {
      try connect()
    } catch {
      logger.notice("no session bus: the D-Bus API is off", metadata: ["why": "\(error.message)"])
    }
  }

  /// Gives the name up (shutdown begins): new callers are not sent to a chimed that is leaving,
  /// and an activation starts the next one. Calls already here are answered as the router says.
  func releaseName() {
    guard !stopping else { return }
    stopping = true
    retry?.close()
    retry = nil
    link?.callDriver("ReleaseName", [.string(bus.name)]) { _ in }
  }

  func close() {
    stopping = true
    retry?.close()
    retry = nil
    disconnect()
  }

  // MARK: Connection

  private func connect() throws(ChimeError) {
    let link = try BusConnection(loop: loop, address: bus.address, logger: logger)
    self.link = link
    link.onDisconnect = { [unowned self] why in lost(why) }
    guard export(on: link) else {
      disconnect()
      throw ChimeError(.daemonUnavailable, "cannot export \(DBusNames.objectPath) on the bus")
    }
    link.matchDriverSignal("NameOwnerChanged") { [unowned self] message in
      guard let values = try? BusMessage.readArguments(message), values.count == 3,
            case .string(let name, _) = values[0], case .string(let new, _) = values[2], new.isEmpty else { return }
      peerLeft(name)
    }
    // DBUS_NAME_FLAG_DO_NOT_QUEUE: a name held by another chimed is refused, not waited for.
    link.callDriver("RequestName", [.string(bus.name), .uint32(4)]) { [unowned self] result in
      switch result {
      case .success(let reply):
        let answer = (try? BusMessage.readArguments(reply)).flatMap { $0.first }
        if case .unsigned(let code, _) = answer, code == 1 || code == 4 {
          retryMillis = 1000
          logger.info("serving the D-Bus API", metadata: ["name": "\(bus.name)", "path": "\(DBusNames.objectPath)"])
        } else {
          logger.warning("the D-Bus name is owned by another process; the D-Bus API is off", metadata: ["name": "\(bus.name)"])
        }
      case .failure(let error):
        logger.warning("cannot take the D-Bus name", metadata: ["name": "\(bus.name)", "error": "\(error.message)"])
      }
    }
  }

  private func export(on link: BusConnection) -> Bool {
    guard let raw = link.bus else { return false }
    let object = UnsafeMutablePointer<chime_dbus_object>.allocate(capacity: 1)
    object.initialize(to: chime_dbus_object(context: Unmanaged.passUnretained(self).toOpaque(), method: dbusMethodHandler(),
                                            version: strdup(configuration.version)))
    self.object = object
    var slot: OpaquePointer?
    let r = sd_bus_add_object_vtable(raw, &slot, DBusNames.objectPath, DBusNames.interface, chime_dbus_vtable(), object)
    guard r >= 0 else {
      logger.warning("cannot export the D-Bus interface", metadata: ["error": "\(BusConnection.errno(r))"])
      return false
    }
    link.hold(slot: slot, box: nil)
    return true
  }

  private func disconnect() {
    for signal in signals.values { signal.close() }
    signals.removeAll()
    for peer in peers.values {
      if case .identifying(let queued) = peer.state { for request in queued { sd_bus_message_unref(request.message) } }
    }
    peers.removeAll()
    link?.onDisconnect = nil
    link?.close()
    link = nil
    if let object {
      free(UnsafeMutableRawPointer(mutating: object.pointee.version))
      object.deallocate()
      self.object = nil
    }
  }

  private func lost(_ why: String) {
    logger.warning("lost the session bus; the D-Bus API retries", metadata: ["why": "\(why)", "retry_ms": "\(retryMillis)"])
    link = nil
    disconnect()
    scheduleRetry()
  }

  private func scheduleRetry() {
    guard !stopping else { return }
    let timer = retry ?? LoopTimer(loop: loop) { [unowned self] in reconnect() }
    retry = timer
    timer.arm(afterMillis: retryMillis)
    retryMillis = min(retryMillis * 2, 30_000)
  }

  private func reconnect() {
    guard !stopping, link == nil else { return }
    do throws(ChimeError) {
      try connect()
    } catch {
      logger.debug("the session bus is still away", metadata: ["why": "\(error.message)"])
      scheduleRetry()
    }
  }

  // MARK: Calls

  /// A method call of the interface (its signature already checked by sd-bus).
  fileprivate func received(_ message: OpaquePointer) -> Int32 {
    guard let sender = sd_bus_message_get_sender(message).map({ String(cString: $0) }),
          let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else {
      return chime_dbus_reply_error(message, "org.freedesktop.DBus.Error.InvalidArgs", "a call without a sender or member")
    }
    if let refusal {
      onCall()
      return replyError(message, refusal)
    }
    let arguments: [BusValue]
    do throws(ChimeError) {
      arguments = try BusMessage.readArguments(message)
    } catch {
      return replyError(message, error)
    }
    sd_bus_message_ref(message)
    let request = DBusRequest(message: message, sender: sender, member: member, arguments: arguments)
    onCall()
    let peer: DBusPeer
    if let known = peers[sender] {
      peer = known
    } else {
      guard peers.count < configuration.limits.maxConnections else {
        answer(request, .failure(ChimeError(.tooManyConnections,
                                            "chimed already serves \(peers.count) bus connections, the most it takes (--max-connections)")))
        return 1
      }
      peer = DBusPeer(name: sender)
      peers[sender] = peer
      identify(peer)
    }
    peer.inFlight += 1
    guard peer.inFlight <= configuration.limits.maxCallsPerConnection else {
      answer(request, .failure(ChimeError(.tooManyCalls,
        "\(peer.inFlight - 1) calls are already in flight on this connection, the most chimed serves at once; wait for some to finish")))
      return 1
    }
    switch peer.state {
    case .identifying(var queued):
      queued.append(request)
      peer.state = .identifying(queued)
    case .ready(let confined):
      run(request, peer: peer, confined: confined)
    case .refused(let error):
      answer(request, .failure(error))
    }
    return 1
  }

  /// Sends the answer to `request` and lets go of its message.
  func answer(_ request: DBusRequest, _ result: Result<[BusValue], ChimeError>) {
    defer { sd_bus_message_unref(request.message) }
    if let peer = peers[request.sender], peer.inFlight > 0 { peer.inFlight -= 1 }
    switch result {
    case .success(let values):
      var reply: OpaquePointer?
      guard sd_bus_message_new_method_return(request.message, &reply) >= 0, let reply else { return }
      defer { sd_bus_message_unref(reply) }
      let r = BusMessage.append(reply, values)
      guard r >= 0 else {
        logger.error("cannot build a D-Bus reply", metadata: ["member": "\(request.member)", "error": "\(BusConnection.errno(r))"])
        _ = replyError(request.message, .internal("chimed could not encode its answer"))
        return
      }
      link?.send(reply)
    case .failure(let error):
      _ = replyError(request.message, error)
    }
  }

  /// What a call that reached a method of a refusing face would get; `received` answers such
  /// calls before they get there.
  static var noRouter: ChimeError { .internal("chimed serves no calls") }

  private func replyError(_ message: OpaquePointer, _ error: ChimeError) -> Int32 {
    let r = chime_dbus_reply_error(message, DBusNames.errorName(error), DBusNames.errorMessage(error))
    link?.scheduleRearm()
    return r < 0 ? r : 1
  }

  // MARK: Peers

  func identified(_ peer: DBusPeer, _ result: Result<String?, ChimeError>) {
    guard peers[peer.name] === peer, case .identifying(let queued) = peer.state else { return }
    switch result {
    case .failure(let error):
      logger.warning("refusing a D-Bus caller", metadata: ["peer": "\(peer.name)", "why": "\(error.message)"])
      peer.state = .refused(error)
      for request in queued { answer(request, .failure(error)) }
    case .success(let confined):
      peer.state = .ready(confined: confined)
      if let confined {
        logger.debug("sandboxed D-Bus caller", metadata: ["peer": "\(peer.name)", "app": "\(confined)"])
        peer.app = confined
        listen(peer, app: confined)
      }
      for request in queued {
        // A call may have ended the face (shutdown) or the peer (it left).
        guard peers[peer.name] === peer else {
          sd_bus_message_unref(request.message)
          continue
        }
        run(request, peer: peer, confined: confined)
      }
    }
  }

  private func peerLeft(_ name: String) {
    guard let peer = peers.removeValue(forKey: name) else { return }
    if case .identifying(let queued) = peer.state { for request in queued { sd_bus_message_unref(request.message) } }
    if let app = peer.app, let group = signals[app] {
      group.remove(name)
      if group.listeners.isEmpty {
        group.close()
        signals[app] = nil
      }
    }
  }

  /// Adds the peer to its app's signal listeners, opening the app's stream if it is the first.
  func listen(_ peer: DBusPeer, app: String) {
    if let group = signals[app] { return group.add(peer.name) }
    do throws(ChimeError) {
      guard let router else { throw Self.noRouter }
      let group = try DBusAppSignals(app: app, router: router) { [unowned self] member, arguments, names in
        emit(member, arguments, to: names)
      }
      group.add(peer.name)
      signals[app] = group
    } catch {
      logger.warning("no D-Bus signals for an app", metadata: ["app": "\(app)", "error": "\(error)"])
    }
  }

  /// Sends one signal to each of `names` (unicast: the destination is set).
  private func emit(_ member: String, _ arguments: [BusValue], to names: [String]) {
    guard let raw = link?.bus else { return }
    for name in names {
      var message: OpaquePointer?
      guard sd_bus_message_new_signal(raw, &message, DBusNames.objectPath, DBusNames.interface, member) >= 0, let message else { continue }
      defer { sd_bus_message_unref(message) }
      guard sd_bus_message_set_destination(message, name) >= 0, BusMessage.append(message, arguments) >= 0 else { continue }
      link?.send(message)
    }
  }
}

// The vtable's handler, made in a nonisolated function so Swift's isolation checks do not trap
// when sd-bus calls it on the loop thread.
private func dbusMethodHandler() -> @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
  return { message, context, _ in
    guard let message, let context else { return 0 }
    return Unmanaged<DBusFace>.fromOpaque(context).takeUnretainedValue().received(message)
  }
}
