import ChimeSystem
@testable import ChimeServer
import ChimeCore
import ChimeStore
import ChimeTestSupport
import Dispatch
import Foundation
import Testing

/// Group commit: changes queued while a batch commits go together in the next batch, which
/// starts as soon as the first is durable, without waiting for the loop; answers come back on
/// the loop in submission order, and the writer is idle only once every answer has run.
@Suite(.testTimeLimit) struct GroupCommitWriterTests {
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

  /// A store, a loop on its own thread and a writer made on it; what was applied and answered.
  final class Rig: @unchecked Sendable {
    let directory = TemporaryDirectory()
    let database: ChimeDatabase
    let loop: EventLoop
    let writer = Locked<GroupCommitWriter?>(nil)
    let applied = Locked<[Int]>([])
    let appliedSignal = DispatchSemaphore(value: 0)
    /// Answers and idle notices, in the order they ran on the loop.
    let log = Locked<[String]>([])
    let logged = DispatchSemaphore(value: 0)
    let loopEnded = DispatchSemaphore(value: 0)

    init() throws {
      database = try ChimeDatabase(path: directory.file("chime.db"))
      loop = try EventLoop()
      let (loop, ended) = (self.loop, loopEnded)
      Thread {
        loop.run()
        ended.signal()
      }.start()
    }

    func note(_ entry: String) {
      log.withLock { $0.append(entry) }
      logged.signal()
    }

    /// Submits `numbers` on the loop (the writer made on first use); `gate` holds the first.
    /// `onAnswer` runs on the loop after each answer is noted.
    func submit(_ numbers: ClosedRange<Int>, gate: DispatchSemaphore? = nil,
                onAnswer: @escaping @Sendable (Int, GroupCommitWriter) -> Void = { _, _ in }) {
      loop.execute { [self] in
        let w = writer.withLock { w in
          if w == nil { w = GroupCommitWriter(loop: loop, database: database) }
          return w!
        }
        for number in numbers {
          let change = Noted(number: number, applied: applied, appliedSignal: appliedSignal, gate: number == numbers.lowerBound ? gate : nil)
          w.submit(change) { [self] result in
            if case .success(let n) = result { note("answered \(n)") } else { note("failed \(number)") }
            onAnswer(number, w)
          }
        }
      }
    }

    /// Waits (at most 10 s each) until `count` more log entries are in.
    func waitForLog(_ count: Int) -> Bool {
      (0..<count).allSatisfy { _ in logged.wait(timeout: .now() + 10) == .success }
    }

    /// Lets the loop end (drops the writer, closes the wake-up handle) and closes the store.
    func stop() {
      loop.execute { [self] in
        writer.withLock { $0 = nil }
        loop.closeWakeup()
      }
      _ = loopEnded.wait(timeout: .now() + 10)
      database.close()
    }
  }

  @Test func theNextBatchCommitsWhileTheLoopIsBusy() throws {
    let rig = try Rig()
    let firstGate = DispatchSemaphore(value: 0)
    let loopGate = DispatchSemaphore(value: 0)
    let loopBlocked = DispatchSemaphore(value: 0)
    defer {
      firstGate.signal(); loopGate.signal()  // a failed expectation must not leave threads parked
      rig.stop()
    }

    // The first change's batch holds the store; two more changes queue behind it.
    rig.submit(1...1, gate: firstGate)
    #expect(rig.appliedSignal.wait(timeout: .now() + 10) == .success)
    rig.submit(2...3)

    // The loop is busy (a long callback) when the first batch becomes durable...
    rig.loop.execute {
      loopBlocked.signal()
      _ = loopGate.wait(timeout: .now() + 10)
    }
    #expect(loopBlocked.wait(timeout: .now() + 10) == .success)
    firstGate.signal()
    // ...and the next batch is applied all the same: it does not wait for the loop.
    for _ in 0..<2 { #expect(rig.appliedSignal.wait(timeout: .now() + 10) == .success) }
    #expect(rig.applied.withLock { $0 } == [1, 2, 3])
    #expect(rig.log.withLock { $0 }.isEmpty, "answers run on the loop, which is still busy")

    loopGate.signal()
    #expect(rig.waitForLog(3))
    #expect(rig.log.withLock { $0 } == ["answered 1", "answered 2", "answered 3"], "answered in submission order")
    let stats = Locked<(Int, Int)>((0, 0))
    let read = DispatchSemaphore(value: 0)
    rig.loop.execute {
      if let w = rig.writer.withLock({ $0 }) { stats.withLock { $0 = (w.batchesCommitted, w.mutationsCommitted) } }
      read.signal()
    }
    #expect(read.wait(timeout: .now() + 10) == .success)
    #expect(stats.withLock { $0 } == (2, 3), "the two waiting changes went together in one batch")
  }

  /// A completion that asks for `whenIdle` (as `stop` does through the add that ends the last
  /// preparation) gets its action only after the rest of its batch has answered: those changes
  /// are durable, and a stopping daemon must not close their calls unanswered.
  @Test func idleMeansEveryAnswerOfTheBatchHasRun() throws {
    let rig = try Rig()
    let gate = DispatchSemaphore(value: 0)
    defer {
      gate.signal()
      rig.stop()
    }
    rig.submit(1...1, gate: gate)
    #expect(rig.appliedSignal.wait(timeout: .now() + 10) == .success)
    rig.submit(2...4) { number, writer in
      if number == 2 { writer.whenIdle { rig.note("idle") } }
    }
    gate.signal()
    #expect(rig.waitForLog(5))
    #expect(rig.log.withLock { $0 } == ["answered 1", "answered 2", "answered 3", "answered 4", "idle"])
  }

  /// A batch that becomes durable after the loop closed its wake-up handle (the daemon is
  /// stopping) is still answered on the loop: its change is on disk, its caller must hear so.
  @Test func aBatchDurableAfterTheWakeUpClosedIsStillAnswered() throws {
    let rig = try Rig()
    let gate = DispatchSemaphore(value: 0)
    defer { gate.signal() }
    rig.submit(1...1, gate: gate)
    #expect(rig.appliedSignal.wait(timeout: .now() + 10) == .success)
    rig.submit(2...2)
    let closed = DispatchSemaphore(value: 0)
    rig.loop.execute {
      rig.loop.closeWakeup()
      closed.signal()
    }
    #expect(closed.wait(timeout: .now() + 10) == .success)
    gate.signal()
    // The loop runs until the commit's work item is done, answering both on the way out.
    #expect(rig.waitForLog(2))
    #expect(rig.log.withLock { $0 } == ["answered 1", "answered 2"])
    #expect(rig.loopEnded.wait(timeout: .now() + 10) == .success)
    rig.database.close()
  }

  /// A committing thread's last batch comes back with its work item's completion, and the
  /// batch of a thread started after it can come back first (through `execute`): each batch is
  /// answered in the order it was taken all the same.
  @Test func batchesAreAnsweredInTheOrderTheyWereTaken() {
    var order = BatchOrder<String>()
    #expect(order.arrived(0, "a") == ["a"])
    #expect(order.arrived(2, "c").isEmpty, "c waits for b")
    #expect(order.arrived(3, "d").isEmpty)
    #expect(order.arrived(1, "b") == ["b", "c", "d"])
    #expect(order.arrived(4, "e") == ["e"])
  }
}
