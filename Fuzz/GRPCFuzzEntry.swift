// libFuzzer entry for the gRPC transport: arbitrary HTTP/2 input, after a valid client preface,
// through the nghttp2 server session and the gRPC layer (Sources/ChimeGRPC), with a fake
// byte stream for the socket and a router stand-in that answers, refuses, streams and leaves
// calls open.
//
// Built by Fuzz/run.sh as a third binary (chime-fuzz-grpc): the ChimeGRPC module's sources (but
// the files that drive the loop's socket and timers) compiled into one module with this entry,
// over a stand-in ChimeServer module of the transport contract (ServerCall.swift,
// StreamConnection.swift), linked with the ChimeCore and ChimeWire libraries of the wire binary,
// swift-log (from the package's checkout), Debian's libnghttp2 (not instrumented) and the
// descriptor set (descriptors.S). Byte 0 of an input picks how it is cut into reads and what
// happens around them; the rest is the HTTP/2 frames a client sends after its preface.
// Checked: no trap or sanitizer report; every call the router was given is finished or
// cancelled once the connection is closed (no subscription outlives its stream).

#if canImport(Glibc)
import Glibc
#endif
import ChimeCore
import ChimeWire
import Logging

/// The socket, as a buffer of what the transport wrote.
final class FuzzByteStream: GRPCByteStream {
  var isClosed = false
  var queuedWriteBytes = 0
  var written = 0

  func write(_ bytes: [UInt8]) {
    guard !isClosed else { return }
    written += bytes.count
  }

  func close(reason: String) { isClosed = true }
  func closeAfterFlush(reason: String) { isClosed = true }
}

/// Deadlines never come in a fuzz run (its clock stands still): the timer is never armed for
/// real.
final class FuzzTimer: GRPCTimer {
  func armOnce(afterMillis millis: UInt64) {}
  func disarm() {}
  func close() {}
}

struct FuzzClock: WallClock {
  func now() -> Instant { Instant(unixMillis: 1_800_000_000_000) }
  func nowMicros() -> Int64 { 1_800_000_000_000_000 }
}

let fuzzLogger: Logger = {
  var logger = Logger(label: "chime-fuzz-grpc")
  logger.logLevel = .critical
  return logger
}()

let clientPreface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func chimeGRPCFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let mode = data[0]
  let input = clientPreface + Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let chunk = [1, 7, 64, 1000, 16_384, Int.max][Int(mode & 7) % 6]
  let stream = FuzzByteStream()
  var calls: [GRPCCall] = []
  let connection = GRPCConnection(
    id: 1, socket: stream,
    limits: .init(maxMessageBytes: mode & 0x40 != 0 ? 64 : 1 << 20, maxQueuedWriteBytes: mode & 0x80 != 0 ? 256 : 8 << 20, maxStreams: 8),
    clock: FuzzClock(), logger: fuzzLogger, confinedApp: mode & 0x20 != 0 ? "org.example.app" : nil, draining: false,
    refusal: nil, makeTimer: { _ in FuzzTimer() }
  ) { call, header, payload in
    guard let call = call as? GRPCCall else { fatalError("the transport started a call that is not a GRPCCall") }
    calls.append(call)
    // What the router would do, by method: answer at once, refuse with a field, stream, or
    // leave the call open for later.
    switch call.method {
    case .getServerInfo:
      call.finish(.success(payload))
    case .add:
      call.finish(.failure(ChimeError(.invalidInterval, "refused \(header.appID.prefix(20)) \u{e9}%", field: "request.trigger")))
    case .subscribe, .registerExtension:
      for _ in 0..<3 { _ = call.sendMessage(payload + [1, 2, 3]) }
      call.onCancel = { _ = payload.count }
    default:
      break
    }
  }
  var offset = 0
  while offset < input.count && !stream.isClosed {
    let end = min(input.count, offset + min(chunk, input.count - offset))
    input[offset..<end].withUnsafeBytes { connection.received($0) }
    offset = end
    if mode & 0x08 != 0 && offset >= input.count / 2 { connection.noteDraining() }
  }
  // Of the calls left open, some end now (streams get one more message first), with an answer
  // or an error; the others must be cancelled by the connection's end.
  for (index, call) in calls.enumerated() where !call.finished && index % 3 != 2 {
    _ = call.sendMessage([UInt8(index & 0xff)])
    call.finish(index % 3 == 0 ? .success([7]) : .failure(ChimeError(.unknownCall, "gone")))
  }
  if mode & 0x10 != 0 { connection.finishAll(with: ChimeError(.shuttingDown, "chimed is shutting down")) }
  connection.closed("fuzz input over")
  for call in calls where !call.finished {
    fatalError("call \(call.method.rawValue) on stream \(call.stream) outlived its connection")
  }
  return 0
}
