import ChimeCore
import ChimeServer
import ChimeWire
import Logging

/// One client connection of the native framing: decodes frames, starts and cancels calls, and
/// writes replies. The listener chose this protocol from the peer's first bytes and handed the
/// socket over (`NativeProtocol`). Loop thread only.
///
/// Calls are independent and may finish in any order. A framing error (a frame over the size
/// limit, bytes that are not a frame) gets one final status with call id 0 and ends the
/// connection; every other problem is a status on the call that caused it. A peer that stops
/// reading while replies pile up past `maxQueuedWriteBytes` is disconnected rather than
/// buffered without bound.
final class NativeConnection: StreamConnection {
  /// A call in flight on this connection.
  final class ActiveCall: ServerCall {
    let id: UInt64
    let method: Method
    let app: String
    weak var connection: NativeConnection?
    private(set) var finished = false
    /// Run when the call is cancelled or its connection goes away (streams unsubscribe here).
    var onCancel: () -> Void = {}
    var confinedApp: String? { connection?.confinedApp }
    var deadline: Instant?

    init(id: UInt64, method: Method, app: String, connection: NativeConnection) {
      self.id = id
      self.method = method
      self.app = app
      self.connection = connection
    }

    /// Sends one message of a stream; false when the call is over.
    func sendMessage(_ payload: [UInt8]) -> Bool {
      guard !finished, let connection, !connection.isClosed else { return false }
      connection.write(.reply(id: id, payload: payload, endOfStream: false, status: nil))
      return !connection.isClosed
    }

    /// Ends the call with a payload (unary success) or an error. Later calls do nothing.
    func finish(_ result: Result<[UInt8], ChimeError>) {
      guard !finished else { return }
      finished = true
      onCancel = {}
      guard let connection else { return }
      connection.calls[id] = nil
      switch result {
      case .success(let payload):
        connection.write(.reply(id: id, payload: payload, endOfStream: true, status: nil))
      case .failure(let error):
        connection.write(.reply(id: id, payload: [], endOfStream: true, status: error))
      }
    }

    fileprivate func cancelled() {
      guard !finished else { return }
      let action = onCancel
      onCancel = {}
      action()
    }
  }

  let id: UInt64
  private let socket: StreamSocket
  private var decoder: FrameDecoder
  private let maxQueuedWriteBytes: Int
  private let maxCallsInFlight: Int
  private let logger: Logger
  private let start: (any ServerCall, CallHeader, [UInt8]) -> Void
  fileprivate var calls: [UInt64: ActiveCall] = [:]
  /// A sandboxed peer's one app id its calls may name.
  let confinedApp: String?

  /// Serves `socket` from now on: its bytes come here (`StreamSocket.onBytes`); its close is
  /// told by the listener (`closed`).
  init(socket: StreamSocket, peer: AcceptedPeer, limits: NativeProtocol.Limits, logger: Logger,
       start: @escaping (any ServerCall, CallHeader, [UInt8]) -> Void) {
    id = peer.id
    confinedApp = peer.confinedApp
    self.socket = socket
    decoder = FrameDecoder(maxFrameBytes: limits.maxFrameBytes)
    maxQueuedWriteBytes = limits.maxQueuedWriteBytes
    maxCallsInFlight = limits.maxCallsInFlight
    self.logger = logger
    self.start = start
    socket.onBytes = { [unowned self] bytes in decode(bytes) }
  }

  var isClosed: Bool { socket.isClosed }
  var callsInFlight: Int { calls.count }

  /// Tells the peer `error` and hangs up (refused peer, framing error): a final status with
  /// call id 0.
  func refuse(_ error: ChimeError) {
    write(.reply(id: 0, payload: [], endOfStream: true, status: error))
    socket.closeAfterFlush(reason: error.message)
  }

  func close(reason: String) { socket.close(reason: reason) }

  /// Ends every call in flight with `error` (streams included), lets the replies drain and
  /// closes. Used at shutdown so clients learn why, instead of seeing the socket vanish.
  func finishAll(with error: ChimeError) {
    let active = Array(calls.values)
    for call in active {
      call.cancelled()
      call.finish(.failure(error))
    }
    socket.closeAfterFlush(reason: error.message)
  }

  /// Native peers learn that the daemon drains from their next call's status.
  func noteDraining() {}

  /// Native calls' deadlines are looked at when they start, by the router.
  func clockChanged() {}

  /// The bytes read before the protocol was chosen, then every read (`StreamSocket.onBytes`).
  func decode(_ bytes: UnsafeRawBufferPointer) {
    decoder.append(bytes)
    while !socket.isClosed {
      let frame: Frame?
      do {
        frame = try decoder.next()
      } catch {
        logger.notice("closing connection: framing error", metadata: ["connection": "\(id)", "error": "\(error)"])
        refuse(error.chimeError)
        return
      }
      guard let frame else { return }
      handle(frame)
    }
  }

  private func handle(_ frame: Frame) {
    switch frame {
    case .call(let callID, let header, let payload):
      guard callID != 0 else {
        refuse(ChimeError(.invalidCallID, "call id 0 is reserved"))
        return
      }
      guard calls[callID] == nil else {
        write(.reply(id: callID, payload: [], endOfStream: true,
                     status: ChimeError(.duplicateCallID, "call id \(callID) is already in flight on this connection")))
        return
      }
      guard calls.count < maxCallsInFlight else {
        write(.reply(id: callID, payload: [], endOfStream: true,
                     status: ChimeError(.tooManyCalls, "\(calls.count) calls are already in flight on this connection, the most chimed serves at once; wait for some to finish")))
        return
      }
      guard let method = Method(rawValue: header.method) else {
        write(.reply(id: callID, payload: [], endOfStream: true,
                     status: ChimeError(.unknownMethod, "unknown method \"\(header.method.prefix(200))\"")))
        return
      }
      let call = ActiveCall(id: callID, method: method, app: header.appID, connection: self)
      calls[callID] = call
      start(call, header, payload)
    case .cancel(let callID):
      guard let call = calls[callID] else {
        write(.reply(id: callID, payload: [], endOfStream: true,
                     status: ChimeError(.unknownCall, "no call \(callID) is in flight on this connection")))
        return
      }
      call.cancelled()
      call.finish(.failure(ChimeError(.cancelled, "cancelled by the client")))
    case .reply:
      refuse(ChimeError(.malformedFrame, "clients send calls and cancels, not replies"))
    }
  }

  fileprivate func write(_ frame: Frame) {
    guard !socket.isClosed else { return }
    if socket.queuedWriteBytes > maxQueuedWriteBytes {
      logger.warning("closing connection: peer is not reading its replies", metadata: [
        "connection": "\(id)", "queued_bytes": "\(socket.queuedWriteBytes)",
      ])
      socket.close(reason: "peer is not reading its replies")
      return
    }
    socket.write(FrameEncoder.encode(frame))
  }

  func closed(_ reason: String) {
    logger.debug("connection closed", metadata: ["connection": "\(id)", "reason": "\(reason)", "calls": "\(calls.count)"])
    let active = calls.values
    calls.removeAll()
    for call in active { call.cancelled() }
  }
}
