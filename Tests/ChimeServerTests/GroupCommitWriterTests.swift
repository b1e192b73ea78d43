@testable import ChimeServer
import ChimeCore
import ChimeStore
import ChimeTestSupport
import Dispatch
import Foundation
import Testing

/// Group commit: changes queued while a batch commits go together in the next batch, which
/// starts as soon as the first is durable, without waiting for the loop; answers come back on
/// the loop in submission order.
@Suite struct GroupCommitWriterTests {
  /// A change that writes nothing: it notes that it was applied and, when it has a gate, waits
  /// there (at most 10 s) inside the write transaction.
  struct Noted: Mutation {
    let app = "org.example.writer"
    let number: Int
    let applied: Locked<[Int]>
    let appliedSignal: DispatchSemaphore
    var gate: DispatchSemaphore?

    func apply(in transaction: WriteTransaction) throws -> Int {
      applied.withLock { $0.append(number) }
      appliedSignal.signal()
      _ = gate?.wait(timeout: .now() + 10)
      return number
    }
  }

  @Test func theNextBatchCommitsWhileTheLoopIsBusy() throws {
    let directory = TemporaryDirectory()
    let database = try ChimeDatabase(path: directory.file("chime.db"))
    defer { database.close() }
    let loop = try EventLoop()
    Thread { loop.run() }.start()

    let applied = Locked<[Int]>([])
    let appliedSignal = DispatchSemaphore(value: 0)
    let answered = Locked<[Int]>([])
    let firstGate = DispatchSemaphore(value: 0)
    let loopGate = DispatchSemaphore(value: 0)
    let loopBlocked = DispatchSemaphore(value: 0)
    let idle = DispatchSemaphore(value: 0)
    defer { firstGate.signal(); loopGate.signal() }  // a failed expectation must not leave threads parked

    let writer = Locked<GroupCommitWriter?>(nil)
    // Builds the writer (once) and submits on the loop.
    func submit(_ numbers: ClosedRange<Int>) {
      loop.execute {
        let w = writer.withLock { w in
          if w == nil { w = GroupCommitWriter(loop: loop, database: database) }
          return w!
        }
        for number in numbers {
          let change = Noted(number: number, applied: applied, appliedSignal: appliedSignal, gate: number == 1 ? firstGate : nil)
          w.submit(change) { result in
            if case .success(let n) = result { answered.withLock { $0.append(n) } }
          }
        }
      }
    }
    // The first change's batch holds the store; two more changes queue behind it.
    submit(1...1)
    #expect(appliedSignal.wait(timeout: .now() + 10) == .success)
    submit(2...3)
    #expect(applied.withLock { $0 } == [1])

    // The loop is busy (a long callback) when the first batch becomes durable...
    loop.execute {
      loopBlocked.signal()
      _ = loopGate.wait(timeout: .now() + 10)
    }
    #expect(loopBlocked.wait(timeout: .now() + 10) == .success)
    firstGate.signal()
    // ...and the next batch is applied all the same: it does not wait for the loop.
    for _ in 0..<2 { #expect(appliedSignal.wait(timeout: .now() + 10) == .success) }
    #expect(applied.withLock { $0 } == [1, 2, 3])
    #expect(answered.withLock { $0 }.isEmpty, "answers run on the loop, which is still busy")

    loopGate.signal()
    loop.execute {
      writer.withLock { $0 }?.whenIdle { idle.signal() }
    }
    #expect(idle.wait(timeout: .now() + 10) == .success)
    #expect(answered.withLock { $0 } == [1, 2, 3], "answered in submission order")
    let stats = Locked<(Int, Int)>((0, 0))
    let read = DispatchSemaphore(value: 0)
    loop.execute {
      if let w = writer.withLock({ $0 }) { stats.withLock { $0 = (w.batchesCommitted, w.mutationsCommitted) } }
      writer.withLock { $0 = nil }
      loop.closeWakeup()
      read.signal()
    }
    #expect(read.wait(timeout: .now() + 10) == .success)
    #expect(stats.withLock { $0 } == (2, 3), "the two waiting changes went together in one batch")
  }
}
