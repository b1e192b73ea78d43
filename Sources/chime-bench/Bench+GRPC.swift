import Foundation

extension Bench {
  /// gRPC beside the native framing, in the same run and against the same daemon: raw durable
  /// adds from one client (p50) and from `clients` clients (adds/s), natively and over gRPC in
  /// alternating rounds; then chimed's RSS with `idleGrpc` idle gRPC connections open. The
  /// native figures of this phase are the floors of its goals (issue 30: ≥ 0.8× the native
  /// rate with 32 clients, p50 ≤ 1.3× native with one).
  func grpcPhase(daemon: DaemonHandle, report: inout Report) throws {
    // Three rounds, alternating which goes first, each figure the median of its rounds: the
    // machine is shared, and one burst elsewhere should not decide a ratio.
    var oneNativeRounds: [AddLoad] = [], oneGRPCRounds: [AddLoad] = []
    var manyNativeRounds: [AddLoad] = [], manyGRPCRounds: [AddLoad] = []
    for round in 0..<3 {
      let grpcFirst = round == 1
      for grpc in grpcFirst ? [true, false] : [false, true] {
        let prefix = "grpc-phase-\(round)-\(grpc ? "grpc" : "native")"
        if grpc {
          oneGRPCRounds.append(try GRPCAddLoad.run(socket: daemon.socket, clients: 1, total: single / 3, idPrefix: prefix + "-single"))
          manyGRPCRounds.append(try GRPCAddLoad.run(socket: daemon.socket, clients: clients, total: parallel / 6, idPrefix: prefix + "-par"))
        } else {
          oneNativeRounds.append(try RawAddLoad.run(socket: daemon.socket, clients: 1, total: single / 3, idPrefix: prefix + "-single"))
          manyNativeRounds.append(try RawAddLoad.run(socket: daemon.socket, clients: clients, total: parallel / 6, idPrefix: prefix + "-par"))
        }
      }
    }
    func median(_ loads: [AddLoad], _ value: (AddLoad) -> Double) -> AddLoad {
      loads.sorted { value($0) < value($1) }[loads.count / 2]
    }
    let oneNative = median(oneNativeRounds, \.p50Millis), oneGRPC = median(oneGRPCRounds, \.p50Millis)
    let manyNative = median(manyNativeRounds, \.rate), manyGRPC = median(manyGRPCRounds, \.rate)
    oneNative.print(label: "1 client, raw native framing (median of 3 rounds by p50)")
    oneGRPC.print(label: "1 client, raw gRPC (median of 3 rounds by p50)")
    manyNative.print(label: "\(clients) clients, raw native framing (median of 3 rounds by rate)")
    manyGRPC.print(label: "\(clients) clients, raw gRPC (median of 3 rounds by rate)")
    print(String(format: "grpc: %d clients %.0f adds/s = %.2f× native %.0f; 1 client p50 %.3f ms = %.2f× native %.3f ms",
                 clients, manyGRPC.rate, manyGRPC.rate / manyNative.rate, manyNative.rate,
                 oneGRPC.p50Millis, oneGRPC.p50Millis / oneNative.p50Millis, oneNative.p50Millis))
    report.floor("adds-1-client-native-p50-same-run", oneNative.p50Millis, "ms", note: "raw native framing, rounds alternating with gRPC")
    report.floor("adds-\(clients)-clients-native-same-run", manyNative.rate, "adds/s", note: "raw native framing, rounds alternating with gRPC")
    report.figure("adds-1-client-grpc-p50", oneGRPC.p50Millis, "ms")
    report.figure("adds-1-client-grpc", oneGRPC.rate, "adds/s")
    report.figure("adds-\(clients)-clients-grpc", manyGRPC.rate, "adds/s")
    report.figure("adds-\(clients)-clients-grpc-p99", manyGRPC.p99Millis, "ms")
    report.check("gRPC adds, \(clients) clients", figure: "adds-\(clients)-clients-grpc", floor: "adds-\(clients)-clients-native-same-run",
                 atLeast: true, bound: 0.8)
    report.check("gRPC 1-client add p50", figure: "adds-1-client-grpc-p50", floor: "adds-1-client-native-p50-same-run",
                 atLeast: false, bound: 1.3)

    // Memory with idle gRPC connections, once the adds' load has passed (IdleTrim hands freed
    // heap back a second after calls stop).
    Thread.sleep(forTimeInterval: 2.5)
    let before = daemon.residentKiB()
    let idle = try GRPCAddLoad.idle(socket: daemon.socket, count: idleGrpc)
    Thread.sleep(forTimeInterval: 2.5)
    let after = daemon.residentKiB()
    print(String(format: "memory: %d idle gRPC connections: RSS %.1f → %.1f MiB (%.1f KiB each)", idle.count,
                 Double(before) / 1024, Double(after) / 1024, Double(after - before) / Double(max(idle.count, 1))))
    report.figure("daemon-rss-\(idleGrpc)-idle-grpc-connections", Double(after) / 1024, "MiB",
                  note: String(format: "%.1f MiB before they opened", Double(before) / 1024))
    report.figure("daemon-rss-per-idle-grpc-connection", Double(after - before) / Double(max(idle.count, 1)), "KiB")
  }
}
