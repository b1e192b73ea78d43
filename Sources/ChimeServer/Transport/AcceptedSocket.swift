import ChimeCore

/// One accepted socket, from accept to close. Until its protocol is known it reads the peer's
/// first bytes itself; the first protocol that claims them (`StreamProtocol.claim`, the default
/// protocol last) is handed the socket with those bytes and serves it from then on. Loop
/// thread only.
///
/// A peer refused before anything was read from it (another uid, too many connections,
/// shutting down) is told why in its own protocol: the refusal waits for its first bytes (for
/// at most `refusalWaitMillis`), then goes to the protocol they show. A peer that sends nothing
/// in time, or not enough to tell, is answered by the default protocol.
final class AcceptedSocket {
  let id: UInt64
  let socket: StreamSocket
  /// Set before `begin` for a sandboxed peer: the one app id its calls may name.
  var confinedApp: String?
  private let protocols: [any StreamProtocol]
  private let makeTimer: (@escaping () -> Void) -> LoopTimer
  private let refusalWaitMillis: UInt64
  /// Whether the daemon has begun its shutdown (told to the protocol chosen).
  private let isDraining: () -> Bool
  private let onClosed: (AcceptedSocket) -> Void
  /// The first bytes, kept until they tell the protocol.
  private var prefix: [UInt8] = []
  /// The chosen protocol's connection; nil while the protocol is not known.
  private(set) var served: (any StreamConnection)?
  /// The refusal waiting for the peer's protocol (then given to it).
  private(set) var refusal: ChimeError?
  private var refusalTimer: LoopTimer?
  /// The wait's timer fired once already (see `refusalWaitEnded`).
  private var refusalWaitLooked = false

  /// `protocols`: the socket's protocols, the default last (at least one).
  init(id: UInt64, socket: StreamSocket, protocols: [any StreamProtocol], makeTimer: @escaping (@escaping () -> Void) -> LoopTimer,
       refusalWaitMillis: UInt64, isDraining: @escaping () -> Bool, onClosed: @escaping (AcceptedSocket) -> Void) {
    precondition(!protocols.isEmpty, "a socket needs a protocol to serve")
    self.id = id
    self.socket = socket
    self.protocols = protocols
    self.makeTimer = makeTimer
    self.refusalWaitMillis = refusalWaitMillis
    self.isDraining = isDraining
    self.onClosed = onClosed
    socket.onBytes = { [unowned self] bytes in firstBytes(bytes) }
    socket.onClose = { [unowned self] reason in closed(reason) }
  }

  var isClosed: Bool { socket.isClosed }
  /// Refused and not yet closed.
  var isRefused: Bool { refusal != nil }

  /// Starts reading: the first bytes choose the protocol.
  func begin() { socket.startReading() }

  /// Tells the peer `error` in its protocol and hangs up: waits for its first bytes to learn
  /// which (unless `waiting` is false, or there is no other protocol: then the default answers
  /// at once).
  func refuse(_ error: ChimeError, waiting: Bool = true) {
    guard served == nil, !socket.isClosed else { return }
    guard waiting, protocols.count > 1 else { return hand(to: protocols[protocols.count - 1], refusing: error) }
    guard refusal == nil else { return }
    refusal = error
    let timer = makeTimer { [weak self] in self?.refusalWaitEnded() }
    timer.arm(afterMillis: refusalWaitMillis)
    refusalTimer = timer
    socket.startReading()
  }

  /// Ends every call with `error` and closes (shutdown): the protocol's connection does it; a
  /// refused peer whose protocol is not known yet is answered by the default protocol now.
  func finishAll(with error: ChimeError) {
    if let served { return served.finishAll(with: error) }
    if let refusal { return hand(to: protocols[protocols.count - 1], refusing: refusal) }
    socket.closeAfterFlush(reason: error.message)
  }

  func noteDraining() { served?.noteDraining() }

  func clockChanged() { served?.clockChanged() }

  func close(reason: String) { socket.close(reason: reason) }

  private func firstBytes(_ bytes: UnsafeRawBufferPointer) {
    prefix.append(contentsOf: bytes)
    var undecided = false
    for candidate in protocols.dropLast() {
      switch candidate.claim(prefix) {
      case .mine: return hand(to: candidate, refusing: refusal)
      case .undecided: undecided = true
      case .notMine: continue
      }
    }
    if undecided { return }
    hand(to: protocols[protocols.count - 1], refusing: refusal)
  }

  /// Gives the socket to `chosen`, with the bytes read so far: to serve it, or to refuse it.
  private func hand(to chosen: any StreamProtocol, refusing error: ChimeError?) {
    endRefusalWait()
    let bytes = prefix
    prefix = []
    let peer = AcceptedPeer(id: id, confinedApp: confinedApp, draining: isDraining())
    if let error {
      refusal = error
      served = chosen.refuse(socket, peer: peer, prefix: bytes, with: error)
    } else {
      served = chosen.serve(socket, peer: peer, prefix: bytes)
    }
  }

  /// The peer had its time: it is answered by the default protocol. libuv runs due timers
  /// before it reads sockets, so the first expiry waits one more turn of the loop (1 ms): bytes
  /// that arrived in time while the loop was busy are read before the peer is judged.
  private func refusalWaitEnded() {
    if !refusalWaitLooked, let refusalTimer {
      refusalWaitLooked = true
      return refusalTimer.arm(afterMillis: 1)
    }
    guard served == nil, let refusal, !socket.isClosed else { return endRefusalWait() }
    hand(to: protocols[protocols.count - 1], refusing: refusal)
  }

  private func endRefusalWait() {
    refusalTimer?.close()
    refusalTimer = nil
  }

  private func closed(_ reason: String) {
    endRefusalWait()
    served?.closed(reason)
    onClosed(self)
  }
}
