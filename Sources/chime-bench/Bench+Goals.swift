import Foundation

/// The goals, each a figure against its floor, and the context printed beside them.
extension Bench {
  /// Where a lone add's time goes, beside the goals (context, not a goal).
  func printStoreContext(_ report: Report) {
    let n = clients
    if let loop = report.figures["adds-\(n)-clients-raw-loop-cpu-per-add"]?.value,
       let pool = report.figures["adds-\(n)-clients-raw-pool-cpu-per-add"]?.value,
       let generator = report.figures["adds-\(n)-clients-raw-generator-cpu-per-add"]?.value,
       let rate = report.figures["adds-\(n)-clients-raw"]?.value, rate > 0 {
      print(String(format: "context (not a goal): %d-client raw adds, CPU per add (medians): chimed's loop %.0f µs, its pool (commits) %.0f µs, the load generator %.0f µs; at %.0f adds/s the loop is busy %.0f%% of the time, and the two cores %.0f%%",
                   n, loop, pool, generator, rate, loop * rate / 1e4, (loop + pool + generator) * rate / 2e4))
    }
    if let lone = report.figures["adds-store-alone-1-per-tx-commit-p50"]?.value,
       let one = report.figures["adds-1-client-raw-p50"]?.value,
       let commit = report.floors["sqlite-full-1-row-commit-p50"]?.value {
      print(String(format: "context (not a goal): a lone add's commit in the store alone p50 %.3f ms = %.2f× the one-row floor commit %.3f ms; the rest of a 1-client raw add (%.3f ms) is the daemon and the wire",
                   lone, lone / commit, commit, one))
    }
  }

  /// What a call's CPU is made of, beside the client's goal (context, not a goal): the echo
  /// floor's client pays only the kernel's send, wait and receive.
  func printClientContext(_ report: Report) {
    if let client = report.figures["chimeclient-cpu-per-call"]?.value,
       let echo = report.floors["unix-socket-round-trip-client-cpu"]?.value, echo > 0 {
      print(String(format: "context (not a goal): ChimeClient CPU per call %.1f µs = %.2f× the echo client's %.1f µs per round trip (the kernel's share of any call here); %.1f µs above it",
                   client, client / echo, echo, client - echo))
    }
  }

  /// The goals (issue 44's table), each against its floor. Many-client adds count against
  /// chimed's own store alone in the same rounds (acknowledged = committed with
  /// synchronous=FULL: the store's cost for its schema is the floor that counts), and against
  /// Redis with `appendfsync always`, the peer to beat.
  func addChecks(to report: inout Report, pending count: Int) {
    let n = clients
    report.check("\(n)-client adds (raw) vs the store alone", figure: "adds-\(n)-clients-raw", floor: "chimed-store-alone-\(n)-per-tx",
                 atLeast: true, bound: 0.8)
    report.check("\(n)-client adds (ChimeClient) vs the store alone", figure: "adds-\(n)-clients-chimeclient", floor: "chimed-store-alone-\(n)-per-tx",
                 atLeast: true, bound: 0.75)
    report.check("\(n)-client adds (raw) vs Redis", figure: "adds-\(n)-clients-raw", floor: "redis-appendfsync-always-hset-\(n)-clients",
                 atLeast: true, bound: 0.5)
    report.check("chimed's store alone vs plain SQLite", figure: "adds-store-alone-\(n)-per-tx", floor: "sqlite-full-64-row-tx",
                 atLeast: true, bound: 0.45)
    report.check("gRPC adds, \(n) clients", figure: "adds-\(n)-clients-grpc", floor: "adds-\(n)-clients-native-same-run", atLeast: true, bound: 0.9)
    report.check("gRPC 1-client add p50", figure: "adds-1-client-grpc-p50", floor: "adds-1-client-native-p50-same-run", atLeast: false, bound: 1.3)
    report.check("1-client add p50 (raw)", figure: "adds-1-client-raw-p50", floor: "round-trip+1-row-commit", atLeast: false, bound: 2)
    report.check("1-client add p50 (ChimeClient)", figure: "adds-1-client-chimeclient-p50", floor: "round-trip+1-row-commit", atLeast: false, bound: 2)
    report.check("ChimeClient CPU per call", figure: "chimeclient-cpu-per-call", atMost: 25)
    report.check("chime pending wall", figure: "chime-pending-wall", floor: "systemctl-version-wall", atLeast: false, bound: 1.5)
    report.check("chime pending peak RSS", figure: "chime-pending-peak-rss", atMost: 15)
    let scale = count == 1_000_000 ? nil : "at \(count) pending; the goal is stated for 1,000,000 (--clone-pending 1000000)"
    report.check("RSS over an empty daemon", figure: "daemon-rss-over-empty", atMost: 8, note: scale)
    report.check("restart to the first due fire", figure: "restart-to-first-due-fire", atMost: 100, note: scale)
    report.check("fire lateness p50", figure: "fire-lateness-daemon-p50", atMost: 0.1)
    report.check("fire lateness p99", figure: "fire-lateness-daemon-p99", atMost: 1)
    report.check("small adds p99 during 50 MB movie adds", figure: "attachments-small-adds-during-p99", atMost: 5)
  }
}
