import ChimeCore
import ChimeSystem
import ChimeWire
import Glibc

/// `RawAddLoad` over gRPC: N connections on chimed's socket, each an HTTP/2 connection with
/// prior knowledge, as gRPC clients speak on Unix sockets (`GRPCBenchConnection`), sending one
/// durable Add and waiting for its trailers before the next, all from one thread polling every
/// socket.
enum GRPCAddLoad {
  static func run(socket path: String, clients: Int, total: Int, idPrefix: String) throws -> AddLoad {
    let perClient = total / clients
    let connections = try (0..<clients).map { _ in try GRPCBenchConnection(path: path) }
    var sent = Array(repeating: 0, count: clients)
    var sentAt = Array(repeating: ContinuousClock.now, count: clients)
    var latencies: [Double] = []
    latencies.reserveCapacity(perClient * clients)
    var done = 0

    func send(_ c: Int) throws {
      let i = sent[c]
      let payload = try CallTable.add.encodeRequest(AddLoad.request("\(idPrefix)-\(c)-\(i)", i))
      sentAt[c] = ContinuousClock.now
      sent[c] += 1
      try connections[c].call(CallTable.add.method.rawValue, app: AddLoad.app, payload: payload)
    }

    let start = ContinuousClock.now
    let deadline = start + .seconds(120)
    for c in 0..<clients where perClient > 0 { try send(c) }
    var pollSet = connections.map { pollfd(fd: $0.fd.rawValue, events: Int16(POLLIN), revents: 0) }
    while done < clients * perClient {
      guard ContinuousClock.now < deadline else { throw BenchError("gRPC add load did not finish within 120 s") }
      let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw BenchError("poll: \(String(cString: strerror(errno)))") }
      for c in 0..<clients where pollSet[c].revents != 0 {
        pollSet[c].revents = 0
        guard let status = try connections[c].readReply() else { continue }
        guard status == "0" else { throw BenchError("gRPC add failed: grpc-status \(status)") }
        latencies.append((ContinuousClock.now - sentAt[c]).micros)
        done += 1
        if sent[c] < perClient { try send(c) }
      }
    }
    return AddLoad(total: done, seconds: (ContinuousClock.now - start).seconds, latenciesMicros: latencies)
  }

  /// Opens `count` gRPC connections that exchange SETTINGS with chimed and then stay idle; they
  /// close when the returned array goes.
  static func idle(socket path: String, count: Int) throws -> [GRPCBenchConnection] {
    let connections = try (0..<count).map { _ in try GRPCBenchConnection(path: path) }
    for connection in connections { try connection.awaitSettings() }
    return connections
  }
}
