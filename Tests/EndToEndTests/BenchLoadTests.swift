import ChimeTestSupport
import Foundation
import Testing

/// The load generators `make bench` measures chimed with frame the wire themselves (the native
/// framing, and HTTP/2 for gRPC in `GRPCBenchConnection`), so a figure is only as good as their
/// framing: against a real chimed, every add they count is one chimed stored, and a second
/// round on the same connections' identifiers replaces rather than adds.
@Suite(.testTimeLimit) struct BenchLoadTests {
  @Test(arguments: [["--grpc"], []])
  func everyAddCountedIsStored(_ transport: [String]) throws {
    let directory = TemporaryDirectory(prefix: "chime-bench-load")
    let daemon = DaemonProcess(directory: directory)
    try daemon.start()
    defer { daemon.terminate() }
    for _ in 0..<2 {
      let load = try ChildProcess.run(DaemonProcess.binDirectory + "/chime-bench",
                                      ["--raw-adds", "96", "--clients", "8", "--socket", daemon.socketPath] + transport)
      #expect(load.status == 0, "\(load.output)\(load.errors)")
      #expect(load.output.contains(": 96 in "), "\(load.output)")
    }
    let pending = try ChimeCLI.run(["pending", "--json"], socket: daemon.socketPath, app: "org.chime.bench")
    let ids = (pending.objects ?? []).compactMap { $0["id"] as? String }
    let prefix = transport.isEmpty ? "raw-native-" : "raw-grpc-"
    #expect(ids.count == 96 && ids.allSatisfy { $0.hasPrefix(prefix) }, "\(ids.count) pending: \(ids.prefix(5))")
  }
}
