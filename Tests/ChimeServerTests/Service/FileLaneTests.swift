import ChimeSystem
@testable import ChimeServer
import ChimeCore
import ChimeTestSupport
import Dispatch
import Foundation
import Testing

/// The attachment file lane lets at most `width` jobs hold pool threads; the rest wait in order,
/// and closing it refuses the waiting ones while the running ones finish.
@Suite(.testTimeLimit) struct FileLaneTests {
  /// A loop on its own thread and a two-wide lane on it; jobs block until their gate opens.
  final class Rig: @unchecked Sendable {
    let loop: EventLoop
    let gates = (0..<5).map { _ in DispatchSemaphore(value: 0) }
    let started = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    /// Job numbers as they start, and as they end ("done" or "refused"), in order.
    let starts = Locked<[Int]>([])
    let ends = Locked<[String]>([])
    var lane: FileLane?  // loop thread only

    init() throws {
      loop = try EventLoop()
      let loop = self.loop
      Thread { loop.run() }.start()
    }

    /// Runs `body` on the loop thread and waits for it.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
      let done = DispatchSemaphore(value: 0)
      let result = Locked<T?>(nil)
      loop.execute {
        result.withLock { $0 = body() }
        done.signal()
      }
      guard done.wait(timeout: .now() + 10) == .success else { return nil }
      return result.withLock { $0 }
    }

    func submit(_ count: Int) {
      _ = onLoop { [self] in
        if lane == nil { lane = FileLane(loop: loop, width: 2) }
        for i in 0..<count {
          lane!.run({ [self] () -> Int in
            starts.withLock { $0.append(i) }
            started.signal()
            gates[i].wait()
            return i
          }, then: { [self] value in
            ends.withLock { $0.append("\(value) done") }
            ended.signal()
          }, refuse: { [self] in
            ends.withLock { $0.append("\(i) refused") }
            ended.signal()
          })
        }
      }
    }

    var counts: (running: Int, queued: Int)? { onLoop { [self] in (lane!.running, lane!.queued) } }

    func stop() {
      _ = onLoop { [self] in
        lane = nil
        loop.closeWakeup()
      }
    }
  }

  @Test func atMostWidthJobsRunAndTheRestStartInOrder() throws {
    let rig = try Rig()
    defer { rig.gates.forEach { $0.signal() } }  // a failed expectation must not leave pool threads parked
    rig.submit(4)
    for _ in 0..<2 { #expect(rig.started.wait(timeout: .now() + 10) == .success) }
    #expect(rig.counts?.running == 2 && rig.counts?.queued == 2)
    #expect(Set(rig.starts.withLock { $0 }) == [0, 1])

    // Each job that ends lets exactly the next waiting one start, first come first served.
    rig.gates[0].signal()
    #expect(rig.started.wait(timeout: .now() + 10) == .success)
    #expect(rig.starts.withLock { $0.last } == 2)
    rig.gates[1].signal()
    #expect(rig.started.wait(timeout: .now() + 10) == .success)
    #expect(rig.starts.withLock { $0.last } == 3)

    rig.gates[2].signal()
    rig.gates[3].signal()
    for _ in 0..<4 { #expect(rig.ended.wait(timeout: .now() + 10) == .success) }
    #expect(rig.ends.withLock { Set($0) } == ["0 done", "1 done", "2 done", "3 done"])
    #expect(rig.counts?.running == 0 && rig.counts?.queued == 0)
    rig.stop()
  }

  @Test func closingRefusesWaitingJobsInOrderAndLetsRunningOnesFinish() throws {
    let rig = try Rig()
    defer { rig.gates.forEach { $0.signal() } }  // a failed expectation must not leave pool threads parked
    rig.submit(4)
    for _ in 0..<2 { #expect(rig.started.wait(timeout: .now() + 10) == .success) }
    _ = rig.onLoop { rig.lane!.close() }
    for _ in 0..<2 { #expect(rig.ended.wait(timeout: .now() + 10) == .success) }
    #expect(rig.ends.withLock { $0 } == ["2 refused", "3 refused"])

    // A job offered after closing is refused at once; the running two still end normally.
    _ = rig.onLoop {
      rig.lane!.run({ 9 }, then: { _ in rig.ends.withLock { $0.append("late done") } },
                    refuse: { rig.ends.withLock { $0.append("late refused") } })
    }
    #expect(rig.ends.withLock { $0.last } == "late refused")
    rig.gates[0].signal()
    rig.gates[1].signal()
    for _ in 0..<2 { #expect(rig.ended.wait(timeout: .now() + 10) == .success) }
    #expect(rig.ends.withLock { Set($0.suffix(2)) } == ["0 done", "1 done"])
    #expect(rig.starts.withLock { Set($0) } == [0, 1], "refused jobs never ran")
    rig.stop()
  }
}

extension FileLaneTests {
  /// Cleanup work (unlinking files nothing holds, a moved file's source) waits for a place
  /// like any job but is never refused: closing the lane refuses only the others, and cleanup
  /// offered after closing still runs, in its turn.
  @Test func cleanupWaitsItsTurnAndIsNeverRefused() throws {
    let rig = try Rig()
    defer { rig.gates.forEach { $0.signal() } }  // a failed expectation must not leave pool threads parked
    rig.submit(2)
    for _ in 0..<2 { #expect(rig.started.wait(timeout: .now() + 10) == .success) }
    _ = rig.onLoop {
      rig.lane!.runToEnd({ rig.starts.withLock { $0.append(100) } }, then: { rig.ends.withLock { $0.append("cleanup done") } })
      rig.lane!.run({ rig.starts.withLock { $0.append(7) } }, then: { _ in rig.ends.withLock { $0.append("7 done") } },
                    refuse: { rig.ends.withLock { $0.append("7 refused") } })
    }
    #expect(rig.counts?.queued == 2, "both wait behind the two running jobs")
    _ = rig.onLoop {
      rig.lane!.close()
      rig.lane!.runToEnd({ rig.starts.withLock { $0.append(101) } }, then: { rig.ends.withLock { $0.append("late cleanup done") } })
    }
    #expect(rig.ends.withLock { $0 } == ["7 refused"])
    #expect(rig.counts?.queued == 2, "the cleanup jobs still wait for a place")
    #expect(rig.starts.withLock { $0.count } == 2, "nothing ran past the width")

    // One place frees while job 1 still holds the other, so the two cleanups must run one
    // after the other, in the order they were offered. (Freeing both places at once would let
    // them run side by side, and their order on two pool threads would be chance.)
    rig.gates[0].signal()
    #expect(rig.ended.wait(timeout: .now() + 10) == .success)
    #expect(try waitFor { rig.ends.withLock { $0.count } == 4 })
    #expect(rig.ends.withLock { $0 } == ["7 refused", "0 done", "cleanup done", "late cleanup done"])
    #expect(rig.starts.withLock { $0 }.suffix(2) == [100, 101])
    rig.gates[1].signal()
    #expect(rig.ended.wait(timeout: .now() + 10) == .success)
    #expect(try waitFor { rig.ends.withLock { $0.count } == 5 })
    #expect(rig.counts?.running == 0 && rig.counts?.queued == 0)
    rig.stop()
  }

  /// Polls `condition` for up to 10 s.
  private func waitFor(_ condition: () -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if condition() { return true }
      usleep(1000)
    }
    return condition()
  }
}
