import ChimeCore
import ChimeStore
import Foundation

/// Durable adds through chimed's own store alone — `ChimeDatabase.commit`, no daemon, no
/// socket, no protobuf on the wire — in batches as large as N one-call-at-a-time clients can
/// form (N), with the load generators' identifiers (N interleaved key ranges), into a fresh
/// store. What the storage itself costs per add: the SQLite floor inserts sequential keys into
/// one table, 64 rows per transaction, while an add writes its row into the pending table and
/// three indexes (one keyed by the caller's identifier, so each add dirties a page of its own),
/// counts it, and appends its event (two more b-trees). A reference beside the daemon's figure,
/// not a bound on it: the daemon's batches are smaller (its clients wait for answers) and its
/// store is not fresh, but it packs requests on other threads while a batch commits.
struct StoreLoad {
  var total: Int
  var seconds: Double
  /// Each transaction's commit, start to durable.
  var commitMicros: [Double]
  var rate: Double { Double(total) / max(seconds, 1e-9) }
  var commitP50Millis: Double { commitMicros.sorted().percentile(0.5) / 1000 }

  static func run(in directory: String, clients: Int, total: Int, seconds limit: Double = 30) throws -> StoreLoad {
    let path = directory + "/store-load.db"
    defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
    let database = try ChimeDatabase(path: path)
    defer { database.close() }
    let rounds = max(total / clients, 1)
    // Made (and packed) before the clock starts: only the commits are timed.
    let now = Instant(unixMillis: 1_800_000_000_000)
    let batches: [[any Mutation]] = (0..<rounds).map { i in
      (0..<clients).map { c in
        let request = AddLoad.request("store-\(c)-\(i)", i)
        let pending = PendingRequest(request: request, nextFire: now.adding(seconds: 86_400 + Double(i)), added: now)
        return AddPending(app: AddLoad.app, pending: pending, at: now)
      }
    }
    let start = ContinuousClock.now
    let deadline = start + .milliseconds(Int(limit * 1000))
    var done = 0
    var commits: [Double] = []
    commits.reserveCapacity(batches.count)
    for batch in batches where ContinuousClock.now < deadline {
      let t0 = ContinuousClock.now
      for result in database.commit(batch) {
        if case .failure(let error) = result { throw BenchError("store add: \(error)") }
      }
      commits.append((ContinuousClock.now - t0).micros)
      done += batch.count
    }
    return StoreLoad(total: done, seconds: (ContinuousClock.now - start).seconds, commitMicros: commits)
  }
}
