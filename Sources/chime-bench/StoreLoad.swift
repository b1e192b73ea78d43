import ChimeCore
import ChimeStore
import Foundation

/// Durable adds through chimed's own store alone — `ChimeDatabase.commit`, no daemon, no
/// socket, no protobuf — in batches as large as N one-call-at-a-time clients can form (N), with
/// the load generators' identifiers (N interleaved key ranges). What the storage itself costs
/// per add: the SQLite floor inserts sequential keys into one table, while an add writes the
/// pending row into three indexes, counts it, and appends its event (two more b-trees); and the
/// daemon's own figure is bounded by this one.
struct StoreLoad {
  var total: Int
  var seconds: Double
  var rate: Double { Double(total) / max(seconds, 1e-9) }

  static func run(in directory: String, clients: Int, total: Int, seconds limit: Double = 30) throws -> StoreLoad {
    let path = directory + "/store-load.db"
    defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    let rounds = max(total / clients, 1)
    let start = ContinuousClock.now
    let deadline = start + .milliseconds(Int(limit * 1000))
    var done = 0
    for i in 0..<rounds where ContinuousClock.now < deadline {
      let now = Instant(unixMillis: 1_800_000_000_000 + Int64(i))
      let batch: [any Mutation] = (0..<clients).map { c in
        let request = NotificationRequest(
          identifier: "store-\(c)-\(i)",
          content: NotificationContent(title: "Bench \(i)", body: "A pending request for the benchmark"),
          trigger: .timeInterval(TimeIntervalTrigger(seconds: 86_400 + Double(i))))
        let pending = PendingRequest(request: request, nextFire: now.adding(seconds: 86_400 + Double(i)), added: now)
        return AddPending(app: AddLoad.app, pending: pending, at: now)
      }
      for result in database.commit(batch) {
        if case .failure(let error) = result { throw BenchError("store add: \(error)") }
      }
      done += batch.count
    }
    return StoreLoad(total: done, seconds: (ContinuousClock.now - start).seconds)
  }
}
