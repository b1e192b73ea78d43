import Foundation

extension Bench {
  /// chimed's RSS with `idleGrpc` idle gRPC connections open, once the adds' load has passed
  /// (IdleTrim hands freed heap back a second after calls stop). gRPC's add figures are
  /// measured in the rounds beside the native framing's (Bench+Rounds).
  func idleGRPCPhase(daemon: DaemonHandle, report: inout Report) throws {
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
