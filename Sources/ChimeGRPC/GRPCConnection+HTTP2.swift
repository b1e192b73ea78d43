import ChimeCore
import ChimeServer
import ChimeWire
import Logging

/// The HTTP/2 session's events for one connection: request headers and bodies become calls,
/// replies are handed to nghttp2 as flow control allows.
extension GRPCConnection {
  func http2StreamOpened(_ streamID: Int32) {
    let stream = Stream(id: streamID, maxMessageBytes: limits.maxMessageBytes)
    streams[streamID] = stream
    receivingHeaders = stream
  }

  func http2Header(_ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
    // A header block arrives in one piece (HTTP/2 allows no other frame inside it), so its
    // fields belong to the stream just opened: no lookup per field.
    guard let stream = receivingHeaders?.id == streamID ? receivingHeaders : streams[streamID] else { return }
    // RFC 9113's measure of a header list: name, value and 32 bytes each. Past the limit
    // nothing more is kept; the request is refused once its header block ends.
    stream.headerBytes += name.count + value.count + 32
    guard stream.headerBytes <= limits.maxHeaderListBytes else { return }
    stream.headers.keep(name: name, value: value)
  }

  func http2HeadersDone(_ streamID: Int32, endStream: Bool) {
    receivingHeaders = nil
    guard let stream = streams[streamID] else { return }
    if let refusal {
      return refuseConnection(stream, refusal)
    }
    if let refusal = check(stream) {
      refuse(stream, refusal)
    } else {
      if let timeout = stream.headers.timeout, let millis = GRPCStatus.timeoutMillis(timeout) { startDeadline(stream, millis: millis) }
      if endStream { http2BodyDone(streamID) }
    }
  }

  func http2Data(_ streamID: Int32, _ bytes: UnsafeRawBufferPointer) {
    guard let stream = streams[streamID], !stream.ended, let target = stream.target else {
      // Nothing reads it: the window goes back at once.
      return session.consumed(streamID, bytes.count)
    }
    stream.reader.append(bytes)
    stream.unconsumed += bytes.count
    do throws(ChimeError) {
      while let message = try stream.reader.next() {
        if target == .reflection(.v1) || target == .reflection(.v1alpha) {
          sendLocal(services.reflect(message), on: stream)
          release(stream, message.count + 5)
          continue
        }
        stream.messages.append(message)
        guard stream.messages.count == 1 else {
          throw ChimeError(.grpcProtocolViolation, "\(stream.headers.path ?? "") takes one request message, not a stream of them")
        }
      }
    } catch {
      refuse(stream, error)
    }
  }

  func http2BodyDone(_ streamID: Int32) {
    guard let stream = streams[streamID], !stream.ended, let target = stream.target else { return }
    if stream.reader.hasPartialMessage {
      return refuse(stream, ChimeError(.grpcProtocolViolation, "the request ended inside a message"))
    }
    if case .reflection = target { return end(stream, status: nil) }
    guard let payload = stream.messages.first else {
      return refuse(stream, ChimeError(.grpcProtocolViolation, "the request has no message"))
    }
    stream.messages.removeAll()
    release(stream, stream.unconsumed)
    switch target {
    case .method(let method):
      var header = CallHeader(method: method.rawValue, appID: stream.headers.app ?? "")
      header.deadline = stream.deadline
      let call = GRPCCall(method: method, app: header.appID, stream: streamID, confinedApp: confinedApp, connection: self)
      stream.call = call
      start(call, header, payload)
    case .healthCheck:
      switch services.healthCheck(payload, draining: draining) {
      case .success(let answer): end(stream, .success(answer))
      case .failure(let error): end(stream, .failure(error))
      }
    case .healthWatch:
      sendLocal(services.healthWatch(payload, draining: draining), on: stream)
    case .reflection:
      break
    }
  }

  func http2PeerError(_ message: String) {
    guard !loggedPeerError else { return }
    loggedPeerError = true
    logger.notice("gRPC peer broke HTTP/2", metadata: ["connection": "\(id)", "error": "\(message.prefix(200))"])
  }

  func http2StreamClosed(_ streamID: Int32, errorCode: UInt32) {
    if receivingHeaders?.id == streamID { receivingHeaders = nil }
    guard let stream = streams.removeValue(forKey: streamID) else { return }
    stream.ended = true
    forgetDeadline(stream)
    release(stream, stream.unconsumed)
    queuedBytes -= stream.unsent
    stream.outbox = []
    stream.sent = 0
    stream.call?.cancelled()
  }

  func http2ResponseBytes(_ streamID: Int32, into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, done: Bool)? {
    guard let stream = streams[streamID] else { return (0, true) }
    let count = min(buffer.count, stream.unsent)
    if count > 0 {
      stream.outbox.withUnsafeBytes { source in
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[stream.sent..<(stream.sent + count)]))
      }
      stream.sent += count
      queuedBytes -= count
    }
    if stream.unsent == 0 {
      stream.outbox.removeAll(keepingCapacity: stream.outbox.capacity <= 64 << 10)
      stream.sent = 0
    }
    guard stream.unsent == 0, let trailers = stream.trailers else { return count > 0 ? (count, false) : nil }
    stream.trailers = nil
    session.trailers(streamID, trailers)
    return (count, true)
  }
}
