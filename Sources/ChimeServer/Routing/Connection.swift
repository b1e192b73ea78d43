import ChimeCore
import ChimeWire
import Logging

/// One client connection: decodes frames, starts and cancels calls, and writes replies.
/// Loop thread only.
///
/// Calls are independent and may finish in any order. A framing error (a frame over the size
/// limit, bytes that are not a frame) gets one final status with call id 0 and ends the
/// connection; every other problem is a status on the call that caused it. A peer that stops
/// reading while replies pile up past `maxQueuedWriteBytes` is disconnected rather than
/// buffered without bound.
///
/// A peer whose first bytes are `PRI ` (the start of the HTTP/2 client preface, which a frame
/// length can never spell: it would be over a gigabyte) speaks gRPC: the socket is handed to
/// `upgrade`'s transport, which serves it from then on.
///
/// A peer refused before anything was read from it (another uid, too many connections,
/// shutting down) is told why in its own protocol: the refusal waits for its first bytes (at
/// most four, for at most `refusalWaitMillis`), then goes out as a native frame, or to the
/// HTTP/2 transport, which answers the peer's first request with it and sends GOAWAY. A peer
/// that sends nothing in time gets the native frame. An HTTP/2 peer sends its preface and
/// settings before its request, so once its preface is in, the wait for that request starts
/// again, `http2RequestWaitMillis` long.
final class Connection {
  /// A call in flight on this connection.
  final class ActiveCall: ServerCall {
    let id: UInt64
    let method: Method
    let app: String
    weak var connection: Connection?
    private(set) var finished = false
    /// Run when the call is cancelled or its connection goes away (streams unsubscribe here).
    var onCancel: () -> Void = {}
    var confinedApp: String? { connection?.confinedApp }

    init(id: UInt64, method: Method, app: String, connection: Connection) {
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
  private let start: (ActiveCall, CallHeader, [UInt8]) -> Void
  private let onClosed: (Connection) -> Void
  fileprivate var calls: [UInt64: ActiveCall] = [:]
  /// Set before `begin` for a sandboxed peer: the one app id its calls may name.
  var confinedApp: String?
  /// Makes the transport for a peer that speaks HTTP/2 (refused with the error given, if one
  /// is); nil: native framing only.
  private let upgrade: ((Connection, StreamSocket, ChimeError?) -> any ConnectionUpgrade)?
  /// The first bytes, kept until they tell the protocol (nil once told).
  private var preface: [UInt8]? = []
  private var upgraded: (any ConnectionUpgrade)?
  /// Makes the timer that bounds a refusal's wait for the peer's first bytes.
  private let makeTimer: ((@escaping () -> Void) -> LoopTimer)?
  private let refusalWaitMillis: UInt64
  /// How long a refused HTTP/2 peer has for its first request once its preface is in.
  private let http2RequestWaitMillis: UInt64
  /// The refusal waiting for the peer's protocol (and, once told, given to the transport).
  private var refusal: ChimeError?
  private var refusalTimer: LoopTimer?
  /// The wait's timer fired once already (see `refusalWaitEnded`).
  private var refusalWaitLooked = false

  init(id: UInt64, socket: StreamSocket, maxFrameBytes: Int, maxQueuedWriteBytes: Int, maxCallsInFlight: Int = .max, logger: Logger,
       upgrade: ((Connection, StreamSocket, ChimeError?) -> any ConnectionUpgrade)? = nil,
       makeTimer: ((@escaping () -> Void) -> LoopTimer)? = nil, refusalWaitMillis: UInt64 = 1000, http2RequestWaitMillis: UInt64 = 5000,
       start: @escaping (ActiveCall, CallHeader, [UInt8]) -> Void, onClosed: @escaping (Connection) -> Void) {
    self.upgrade = upgrade
    self.makeTimer = makeTimer
    self.refusalWaitMillis = refusalWaitMillis
    self.http2RequestWaitMillis = http2RequestWaitMillis
    self.maxCallsInFlight = maxCallsInFlight
    self.id = id
    self.socket = socket
    self.decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
    self.maxQueuedWriteBytes = maxQueuedWriteBytes
    self.logger = logger
    self.start = start
    self.onClosed = onClosed
    socket.onBytes = { [unowned self] bytes in received(bytes) }
    socket.onClose = { [unowned self] reason in closed(reason) }
  }

  var isClosed: Bool { socket.isClosed }
  /// Refused, and waiting for the peer's first bytes or first HTTP/2 request.
  var isAwaitingRefusal: Bool { refusalTimer != nil }
  var callsInFlight: Int { calls.count }

  func begin() { socket.startReading() }

  /// Tells the peer `error` and hangs up (refused peer, framing error, shutdown): a final status
  /// with call id 0, or, before the peer's protocol is known, that answer in the protocol its
  /// first bytes show (unless `waiting` is false: then natively at once).
  func refuse(_ error: ChimeError, waiting: Bool = true) {
    guard waiting, preface != nil, upgraded == nil, upgrade != nil, let makeTimer, !socket.isClosed else { return refuseNatively(error) }
    guard refusal == nil else { return }
    refusal = error
    let timer = makeTimer { [weak self] in self?.refusalWaitEnded() }
    timer.arm(afterMillis: refusalWaitMillis)
    refusalTimer = timer
    socket.startReading()
  }

  private func refuseNatively(_ error: ChimeError) {
    preface = nil
    endRefusalWait()
    write(.reply(id: 0, payload: [], endOfStream: true, status: error))
    socket.closeAfterFlush(reason: error.message)
  }

  /// The peer had its time: one that has not shown its protocol is answered natively, an HTTP/2
  /// peer that has not sent a request yet gets the GOAWAY alone. libuv runs due timers before it
  /// reads sockets, so the first expiry waits one more turn of the loop (1 ms): bytes that
  /// arrived in time while the loop was busy are read before the peer is judged.
  private func refusalWaitEnded() {
    if !refusalWaitLooked, let refusalTimer {
      refusalWaitLooked = true
      return refusalTimer.arm(afterMillis: 1)
    }
    endRefusalWait()
    guard let refusal, !socket.isClosed else { return }
    if let upgraded { return upgraded.finishAll(with: refusal) }
    refuseNatively(refusal)
  }

  private func endRefusalWait() {
    refusalTimer?.close()
    refusalTimer = nil
  }

  func close(reason: String) { socket.close(reason: reason) }

  /// Ends every call in flight with `error` (streams included), lets the replies drain and
  /// closes. Used at shutdown so clients learn why, instead of seeing the socket vanish.
  func finishAll(with error: ChimeError) {
    if let upgraded { return upgraded.finishAll(with: error) }
    if let refusal, preface != nil { return refuseNatively(refusal) }
    let active = Array(calls.values)
    for call in active {
      call.cancelled()
      call.finish(.failure(error))
    }
    socket.closeAfterFlush(reason: error.message)
  }

  /// The daemon stopped taking new calls (a gRPC peer is sent GOAWAY; native peers learn it
  /// from their next call's status).
  func noteDraining() { upgraded?.noteDraining() }

  /// The wall clock (or a test's clock) moved: deadlines are looked at again.
  func clockChanged() { upgraded?.clockChanged() }

  private func received(_ bytes: UnsafeRawBufferPointer) {
    if let upgraded { return upgraded.received(bytes) }
    if var first = preface {
      first.append(contentsOf: bytes)
      let http2 = Array("PRI ".utf8)
      if let upgrade, first.starts(with: http2.prefix(first.count)) {
        guard first.count >= http2.count else {
          preface = first
          return
        }
        preface = nil
        // A refused peer keeps the wait's timer, started again: it bounds how long its
        // transport waits for a request to answer.
        if let refusalTimer {
          refusalWaitLooked = false
          refusalTimer.arm(afterMillis: http2RequestWaitMillis)
        }
        let transport = upgrade(self, socket, refusal)
        upgraded = transport
        return first.withUnsafeBytes { transport.received($0) }
      }
      if let refusal { return refuseNatively(refusal) }
      preface = nil
      return first.withUnsafeBytes { decode($0) }
    }
    decode(bytes)
  }

  private func decode(_ bytes: UnsafeRawBufferPointer) {
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

  private func closed(_ reason: String) {
    endRefusalWait()
    upgraded?.closed(reason)
    logger.debug("connection closed", metadata: ["connection": "\(id)", "reason": "\(reason)", "calls": "\(calls.count)"])
    let active = calls.values
    calls.removeAll()
    for call in active { call.cancelled() }
    onClosed(self)
  }
}
