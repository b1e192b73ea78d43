import ChimeCore
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
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    for _ in 0..<clients { sockets.append(try connectUnix(path)) }
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
      let request = NotificationRequest(
        identifier: "\(idPrefix)-\(c)-\(i)",
        content: NotificationContent(title: "Bench \(i)", body: "A pending request for the benchmark"),
        trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400 + Double(i))))
      let frame = FrameEncoder.encode(.call(id: nextCallID, CallHeader(method: Calls.add.method.rawValue, appID: AddLoad.app),
                                            payload: try Calls.add.encodeRequest(request)))
      nextCallID += 1
      sentAt[c] = ContinuousClock.now
      sent[c] += 1
      try writeAll(sockets[c], frame)
    }

    let start = ContinuousClock.now
    let deadline = start + .seconds(120)
    for c in 0..<clients where perClient > 0 { try send(c) }
    var pollSet = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while done < clients * perClient {
      guard ContinuousClock.now < deadline else { throw BenchError("raw add load did not finish within 120 s") }
      let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw BenchError("poll: \(String(cString: strerror(errno)))") }
      for c in 0..<clients where pollSet[c].revents != 0 {
        pollSet[c].revents = 0
        let n = buffer.withUnsafeMutableBytes { recv(sockets[c], $0.baseAddress, $0.count, 0) }
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

  private static func connectUnix(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard rc == 0 else {
      close(fd)
      throw BenchError("connect \(path): \(String(cString: strerror(errno)))")
    }
    return fd
  }

  private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
      offset += n
    }
  }
}
