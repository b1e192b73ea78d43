import ChimeCore
import ChimeSystem
import ChimeWire
import Foundation
import Glibc

/// The same load as `AddLoad` — N connections, each sending one durable Add and waiting for
/// its acknowledgement before the next — from a single thread polling every socket, so the
/// load generator spends as little CPU as possible and the daemon's capacity shows (the
/// benchmark and the daemon share this machine's cores).
enum RawAddLoad {
  static func run(socket path: String, clients: Int, total: Int, idPrefix: String) throws -> AddLoad {
    let perClient = total / clients
    var sockets: [FileDescriptor] = []
    defer { for fd in sockets { fd.close() } }
    for _ in 0..<clients { sockets.append(try UnixSocket.connect(path: path)) }
    var decoders = Array(repeating: FrameDecoder(maxFrameBytes: 64 << 20), count: clients)
    var sent = Array(repeating: 0, count: clients)
    var sentAt = Array(repeating: ContinuousClock.now, count: clients)
    var latencies: [Double] = []
    latencies.reserveCapacity(perClient * clients)
    var nextCallID: UInt64 = 1
    var done = 0
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    func send(_ c: Int) throws {
      let i = sent[c]
      let request = AddLoad.request("\(idPrefix)-\(c)-\(i)", i)
      let frame = FrameEncoder.encode(.call(id: nextCallID, CallHeader(method: CallTable.add.method.rawValue, appID: AddLoad.app),
                                            payload: try CallTable.add.encodeRequest(request)))
      nextCallID += 1
      sentAt[c] = ContinuousClock.now
      sent[c] += 1
      do throws(Errno) {
        try UnixSocket.sendAll(sockets[c], frame)
      } catch {
        throw BenchError("send: \(error)")
      }
    }

    let start = ContinuousClock.now
    let deadline = start + .seconds(120)
    for c in 0..<clients where perClient > 0 { try send(c) }
    var pollSet = sockets.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    while done < clients * perClient {
      guard ContinuousClock.now < deadline else { throw BenchError("raw add load did not finish within 120 s") }
      let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw BenchError("poll: \(String(cString: strerror(errno)))") }
      for c in 0..<clients where pollSet[c].revents != 0 {
        pollSet[c].revents = 0
        let n = buffer.withUnsafeMutableBytes { recv(sockets[c].rawValue, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw BenchError("daemon closed the connection") }
        buffer.withUnsafeBytes { decoders[c].append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        while let frame = try decoders[c].next() {
          guard case .reply(_, _, true, let status) = frame else { continue }
          if let status { throw BenchError("add failed: \(status)") }
          latencies.append((ContinuousClock.now - sentAt[c]).micros)
          done += 1
          if sent[c] < perClient { try send(c) }
        }
      }
    }
    return AddLoad(total: done, seconds: (ContinuousClock.now - start).seconds, latenciesMicros: latencies)
  }
}
