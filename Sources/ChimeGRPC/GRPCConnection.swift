import ChimeCore
import ChimeServer
import ChimeWire
import Logging

/// One gRPC client connection (HTTP/2 with prior knowledge, on a socket whose first bytes were
/// the client preface: `GRPCProtocol`): turns each request stream into a call for the router, or for the transport's own
/// reflection and health services, and its answers into DATA and trailers. Loop thread only.
///
/// A problem with one stream (unknown method, wrong content type, a message over the limit, a
/// compressed or truncated message) ends that stream with its status; input that breaks HTTP/2
/// ends the connection with the GOAWAY nghttp2 sends. A stream whose reader stopped is held by
/// HTTP/2 flow control; once the connection's unsent replies would pass `maxQueuedWriteBytes`,
/// the stream adding to them is reset (ENHANCE_YOUR_CALM, which clients read as
/// RESOURCE_EXHAUSTED).
final class GRPCConnection: HTTP2SessionDelegate, StreamConnection {
  struct Limits {
    var maxMessageBytes: Int
    var maxQueuedWriteBytes: Int
    var maxStreams: Int
    var maxHeaderListBytes = 16 << 10
  }

  /// One request stream: its headers while they arrive, then what answers it.
  final class Stream {
    let id: Int32
    var headers = GRPCRequestHeaders()
    var headerBytes = 0
    var reader: GRPCMessageReader
    var messages: [[UInt8]] = []
    var target: GRPCTarget?
    var call: GRPCCall?
    /// Ended (answered, refused or reset): later bytes are ignored.
    var ended = false
    /// Response headers sent with a body to follow.
    var responding = false
    var outbox: [UInt8] = []
    var sent = 0
    /// Set when the call ended after a body: sent once the outbox is empty.
    var trailers: HTTP2Session.HeaderBlock?
    /// Body bytes received and not yet handed on (given back to the windows when they are).
    var unconsumed = 0
    /// When the stream ends with DEADLINE_EXCEEDED (its grpc-timeout), on the service's clock.
    var deadline: Instant?

    init(id: Int32, maxMessageBytes: Int) {
      self.id = id
      reader = GRPCMessageReader(maxMessageBytes: maxMessageBytes)
    }

    var unsent: Int { outbox.count - sent }
  }

  let id: UInt64
  let socket: any GRPCByteStream
  let session: HTTP2Session
  let limits: Limits
  let clock: any WallClock
  let logger: Logger
  let confinedApp: String?
  let start: (any ServerCall, CallHeader, [UInt8]) -> Void
  let services: GRPCServices
  /// Makes the timer for the streams' deadlines (once, when a first stream has one).
  let makeTimer: (@escaping () -> Void) -> any GRPCTimer
  var deadlineTimer: (any GRPCTimer)?
  /// The deadline the timer is armed for.
  var armedDeadline: Instant?
  /// Set for a peer refused before its first bytes were read: each request is answered with
  /// this status, then the connection ends with a GOAWAY naming it. No call reaches the router.
  let refusal: ChimeError?
  var streams: [Int32: Stream] = [:]
  /// The stream whose header block is being read (between its HEADERS frame and the block's end).
  var receivingHeaders: Stream?
  /// Reply bytes of every stream not yet handed to nghttp2 (held by flow control): bounded by
  /// `maxQueuedWriteBytes` for the connection, as the native framing bounds its queue.
  var queuedBytes = 0
  /// Inside the session (receiving or producing output): output is taken once it returns.
  var inSession = false
  var draining = false
  var failed = false
  /// The peer broke HTTP/2 before: later errors of the same connection are not logged again.
  var loggedPeerError = false
  /// The refusal is answered: the connection closes once that answer is written.
  var refused = false

  init(id: UInt64, socket: any GRPCByteStream, limits: Limits, clock: any WallClock, logger: Logger, confinedApp: String?,
       draining: Bool, refusal: ChimeError?, makeTimer: @escaping (@escaping () -> Void) -> any GRPCTimer,
       start: @escaping (any ServerCall, CallHeader, [UInt8]) -> Void) {
    self.id = id
    self.refusal = refusal
    self.makeTimer = makeTimer
    self.socket = socket
    self.limits = limits
    self.clock = clock
    self.logger = logger
    self.confinedApp = confinedApp
    self.start = start
    self.draining = draining
    session = HTTP2Session(settings: .init(
      maxConcurrentStreams: UInt32(clamping: limits.maxStreams), maxHeaderListBytes: UInt32(clamping: limits.maxHeaderListBytes),
      initialWindowBytes: UInt32(clamping: max(64 << 10, limits.maxMessageBytes + (16 << 10)))))
    services = GRPCServices()
    session.delegate = self
    if draining { session.announceShutdown() }
  }

  // MARK: StreamConnection

  func received(_ bytes: UnsafeRawBufferPointer) {
    guard !failed else { return }
    inSession = true
    do throws(HTTP2Failure) {
      try session.receive(bytes)
    } catch {
      inSession = false
      failed = true
      if !loggedPeerError {
        logger.notice("closing gRPC connection: HTTP/2 error", metadata: ["connection": "\(id)", "error": "\(error)"])
      }
      flush()
      socket.closeAfterFlush(reason: "HTTP/2 error: \(error)")
      return
    }
    inSession = false
    flush()
  }

  func noteDraining() {
    guard !draining else { return }
    draining = true
    session.announceShutdown()
    for stream in streams.values where stream.target == .healthWatch && stream.responding && !stream.ended {
      sendLocal(services.health(draining: true), on: stream)
    }
    flush()
  }

  func finishAll(with error: ChimeError) {
    // A refused connection has sent its GOAWAY and is closing already.
    guard !refused else { return }
    draining = true
    for stream in Array(streams.values) where !stream.ended {
      if let call = stream.call {
        call.cancelled()
        end(stream, .failure(error))
      } else if stream.target != nil {
        end(stream, .failure(error))
      }
    }
    session.goAway(.noError, debug: error.reason + ": " + error.message)
    flush()
    // As the native framing does: what is written reaches the peer, nothing more is read (the
    // daemon lets go of its connections once the store is closed).
    socket.closeAfterFlush(reason: error.message)
  }

  func clockChanged() { expireDeadlines() }

  func closed(_ reason: String) {
    deadlineTimer?.close()
    deadlineTimer = nil
    armedDeadline = nil
    let open = Array(streams.values)
    streams.removeAll()
    queuedBytes = 0
    for stream in open { stream.call?.cancelled() }
  }

  // MARK: Answers, from GRPCCall

  /// Queues one message of `stream`'s response; false when the stream is over or was cut off
  /// because its reader stopped.
  func send(_ payload: [UInt8], on streamID: Int32) -> Bool {
    guard let stream = streams[streamID], !stream.ended, !socket.isClosed else { return false }
    guard enqueue(payload, on: stream) else { return false }
    flush()
    return !stream.ended
  }

  /// Ends `stream` with a last message and OK, or with an error.
  func finish(_ streamID: Int32, _ result: Result<[UInt8], ChimeError>) {
    guard let stream = streams[streamID], !stream.ended else { return }
    end(stream, result)
    flush()
  }

  func enqueue(_ payload: [UInt8], on stream: Stream) -> Bool {
    if !stream.responding {
      stream.responding = true
      session.respond(stream.id, headers: Self.responseHeaders, body: true)
    }
    // The connection's replies held by flow control may not pass the limit (one reply larger
    // than it still goes when nothing waits, as on the native framing).
    let size = payload.count + 5
    if queuedBytes > 0 && queuedBytes + size > limits.maxQueuedWriteBytes {
      logger.warning("resetting a gRPC stream: its reader is not reading", metadata: [
        "connection": "\(id)", "stream": "\(stream.id)", "stream_queued_bytes": "\(stream.unsent)",
        "connection_queued_bytes": "\(queuedBytes)",
      ])
      stream.ended = true
      stream.call?.cancelled()
      queuedBytes -= stream.unsent
      stream.outbox = []
      stream.sent = 0
      session.reset(stream.id, .enhanceYourCalm)
      flush()
      return false
    }
    queuedBytes += size
    if stream.sent > 0 && stream.sent >= stream.outbox.count / 2 {
      // Bytes nghttp2 has taken are dropped once they are half the outbox: a stream whose
      // reader always leaves some unread (a steady stream of replies) holds about what is
      // unsent, not everything it ever sent.
      stream.outbox.removeSubrange(0..<stream.sent)
      stream.sent = 0
    }
    let length = UInt32(payload.count)
    stream.outbox.append(0)
    stream.outbox.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)])
    stream.outbox.append(contentsOf: payload)
    session.resume(stream.id)
    return true
  }

  func end(_ stream: Stream, _ result: Result<[UInt8], ChimeError>) {
    switch result {
    case .success(let payload):
      guard enqueue(payload, on: stream) else { return }
      end(stream, status: nil)
    case .failure(let error):
      end(stream, status: error)
    }
  }

  /// Ends `stream` with `status` (nil: OK) after what it has sent.
  func end(_ stream: Stream, status: ChimeError?) {
    stream.ended = true
    forgetDeadline(stream)
    release(stream, stream.unconsumed)
    if stream.responding {
      stream.trailers = status == nil ? Self.okTrailers : HTTP2Session.HeaderBlock(GRPCStatus.fields(status))
      session.resume(stream.id)
    } else {
      // Trailers-only: the status in the one HEADERS frame that ends the stream.
      session.respond(stream.id, headers: status == nil ? Self.okTrailersOnly : HTTP2Session.HeaderBlock(Self.responseFields + GRPCStatus.fields(status)),
                      body: false)
    }
  }

  private static let responseFields = [(":status", "200"), ("content-type", "application/grpc"), ("grpc-accept-encoding", "identity")]
  private static let responseHeaders = HTTP2Session.HeaderBlock(responseFields)
  private static let okTrailers = HTTP2Session.HeaderBlock(GRPCStatus.fields(nil))
  private static let okTrailersOnly = HTTP2Session.HeaderBlock(responseFields + GRPCStatus.fields(nil))

  /// Writes what the session has to send; closes a connection whose peer is not reading at
  /// all, and one HTTP/2 is done with.
  func flush() {
    guard !inSession, !socket.isClosed else { return }
    inSession = true
    defer { inSession = false }
    do throws(HTTP2Failure) {
      let out = try session.takeOutput()
      if !out.isEmpty {
        if socket.queuedWriteBytes > limits.maxQueuedWriteBytes {
          logger.warning("closing gRPC connection: peer is not reading its replies", metadata: [
            "connection": "\(id)", "queued_bytes": "\(socket.queuedWriteBytes)",
          ])
          socket.close(reason: "peer is not reading its replies")
          return
        }
        socket.write(out)
      }
    } catch {
      logger.notice("closing gRPC connection: HTTP/2 error", metadata: ["connection": "\(id)", "error": "\(error)"])
      socket.close(reason: "HTTP/2 error: \(error)")
      return
    }
    if refused {
      socket.closeAfterFlush(reason: refusal?.message ?? "refused")
    } else if !session.isAlive {
      socket.closeAfterFlush(reason: "HTTP/2 session over")
    }
  }
}
