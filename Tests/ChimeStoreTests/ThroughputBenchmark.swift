import ChimeCore
import Foundation
import Glibc
import Testing
@testable import ChimeStore

/// A throughput measurement, not a test: run with CHIME_STORE_BENCH=1 (release build for
/// meaningful numbers; see the report). Prints rows/s for commit batches of `.add` mutations
/// (synchronous=FULL, one fsync'd WAL commit per batch), then for firing them all in batches
/// of the same size. CPU time is printed beside wall time because a shared machine's wall
/// time mostly measures its neighbours. CHIME_STORE_BENCH_DIR picks the disk.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CHIME_STORE_BENCH"] != nil))
struct ThroughputBenchmark {
  @Test(arguments: [1, 32, 256])
  func addThroughput(batchSize: Int) throws {
    let store = try StoreFixture(directory: ProcessInfo.processInfo.environment["CHIME_STORE_BENCH_DIR"])
    let rows = (batchSize == 1 ? 2_000 : 50_000) / batchSize * batchSize
    let batches = (0..<(rows / batchSize)).map { b in
      (0..<batchSize).map { i -> any Mutation in
        let n = b * batchSize + i
        let at = t0.adding(millis: Int64(n))
        var request = Fixtures.request("request-\(n)", after: Double(60 + n % 3600))
        request.content.userInfoJSON = #"{"thread":"t\#(n % 17)","n":\#(n)}"#
        return .add(app: "com.example.app\(n % 8)", pending: Fixtures.pending(request, added: at), at: at)
      }
    }
    var failures = 0
    let add = Self.measure {
      for batch in batches {
        for result in store.db.commit(batch) where result.failure != nil { failures += 1 }
      }
    }
    Self.report("add", batchSize: batchSize, rows: rows, commits: batches.count, add)
    #expect(failures == 0)
    #expect(try store.db.pendingCount() == rows)

    // Fire everything, in schedule order, in batches of the same size.
    var fired = 0
    var commits = 0
    let fire = try Self.measure {
      var after: ScheduleKey?
      while true {
        let keys = try store.db.soonest(after: after, limit: batchSize)
        guard let last = keys.last else { break }
        after = last
        commits += 1
        let fires: [any Mutation] = try store.db.dueRows(keys).compactMap { due in
          guard case .current(let row) = due else { return nil }
          let plan = FirePlan.decide(row.pending.request, due: row.key.due, now: row.key.due, missedGraceMillis: 2000, zone: .utc)
          return Fire(row, plan: plan, now: row.key.due, sound: row.pending.sound)
        }
        for result in store.db.commit(fires) {
          if ((try? result.get()) as? Fire.Outcome)?.delivered != nil { fired += 1 }
        }
      }
    }
    Self.report("fire", batchSize: batchSize, rows: fired, commits: commits, fire)
    #expect(fired == rows)
  }

  struct Cost {
    var wall: Double
    var cpu: Double
  }

  static func measure(_ body: () throws -> Void) rethrows -> Cost {
    let wall = ContinuousClock.now
    let cpu = cpuSeconds()
    try body()
    let elapsed = ContinuousClock.now - wall
    return Cost(wall: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, cpu: cpuSeconds() - cpu)
  }

  static func cpuSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  static func report(_ what: String, batchSize: Int, rows: Int, commits: Int, _ cost: Cost) {
    print(String(format: "chime-store %@ batch %4d: %6d rows in %4d commits, wall %7.3f s = %8.0f rows/s (%6.1f ms/commit); cpu %7.3f s = %6.1f µs/row",
                 what, batchSize, rows, commits, cost.wall, Double(rows) / cost.wall, cost.wall * 1000 / Double(commits),
                 cost.cpu, cost.cpu * 1e6 / Double(rows)))
  }
}
