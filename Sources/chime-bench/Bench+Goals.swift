import Foundation

/// The goals, each a figure against its floor, and the context printed beside them.
extension Bench {
  /// Where the many-client add rate stands between the storage and the floor, and beside the
  /// peer (Redis with `appendfsync always`), when it ran (not goals).
  func printStoreContext(_ report: Report) {
    guard let store = report.figures["adds-store-alone-\(clients)-per-tx"]?.value, store > 0,
          let raw = report.figures["adds-\(clients)-clients-raw"]?.value else { return }
    if let floor = report.floors["sqlite-full-64-row-tx"]?.value, floor > 0 {
      print(String(format: "context (not a goal): chimed's store alone, %d adds per transaction into a fresh store: %.0f adds/s = %.2f× floor sqlite-full-64-row-tx (64 sequential-key rows per transaction, one table); %d-client adds (raw) are %.2f× the store alone",
                   clients, store, store / floor, clients, raw / store))
    }
    if let redis = report.floors["redis-appendfsync-always-hset-\(clients)-clients"]?.value, redis > 0 {
      print(String(format: "peer (not a goal): Redis appendfsync always, HSET, %d clients: %.0f req/s; %d-client adds (raw) are %.2f× Redis",
                   clients, redis, clients, raw / redis))
    }
    if let lone = report.figures["adds-store-alone-1-per-tx-commit-p50"]?.value,
       let one = report.figures["adds-1-client-raw-p50"]?.value,
       let commit = report.floors["sqlite-full-1-row-commit-p50"]?.value {
      print(String(format: "context (not a goal): a lone add's commit in the store alone p50 %.3f ms = %.2f× the one-row floor commit %.3f ms; the rest of a 1-client raw add (%.3f ms) is the daemon and the wire",
                   lone, lone / commit, commit, one))
    }
  }

  /// The goals, each against its floor. Many-client adds count against chimed's own store
  /// alone in the same run (acknowledged = committed with synchronous=FULL: the store's cost for
  /// its schema is the floor that counts); Redis is printed beside them as the peer.
  func addChecks(to report: inout Report, pending count: Int) {
    report.check("\(clients)-client adds (raw)", figure: "adds-\(clients)-clients-raw", floor: "chimed-store-alone-\(clients)-per-tx", atLeast: true, bound: 0.75)
    report.check("\(clients)-client adds (ChimeClient)", figure: "adds-\(clients)-clients-chimeclient", floor: "chimed-store-alone-\(clients)-per-tx",
                 atLeast: true, bound: 0.75)
    report.check("1-client add p50 (raw)", figure: "adds-1-client-raw-p50", floor: "round-trip+1-row-commit", atLeast: false, bound: 2)
    report.check("1-client add p50 (ChimeClient)", figure: "adds-1-client-chimeclient-p50", floor: "round-trip+1-row-commit", atLeast: false, bound: 2)
    report.check("ChimeClient CPU per call", figure: "chimeclient-cpu-per-call", atMost: 50)
    report.check("chime pending wall", figure: "chime-pending-wall-p50", floor: "systemctl-version-wall-p50", atLeast: false, bound: 2)
    report.check("chime pending peak RSS", figure: "chime-pending-peak-rss", atMost: 15)
    let scale = count == 1_000_000 ? nil : "at \(count) pending; the goal is stated for 1,000,000 (--pending 1000000)"
    report.check("RSS over an empty daemon", figure: "daemon-rss-over-empty", atMost: 10, note: scale)
    report.check("restart to the first due fire", figure: "restart-to-first-due-fire", atMost: 100, note: scale)
    report.check("fire lateness p50", figure: "fire-lateness-daemon-p50", atMost: 0.1)
    report.check("fire lateness p99", figure: "fire-lateness-daemon-p99", atMost: 1)
    report.check("small adds p99 during 50 MB movie adds", figure: "attachments-small-adds-during-p99", atMost: 5)
  }
}
