@testable import ChimeServer
import Dispatch
import Foundation
import Synchronization
import Testing

/// The attachment file lane lets at most `width` jobs hold pool threads; the rest wait in order.
@Suite struct FileLaneTests {
  @Test func atMostWidthJobsRunAndTheRestWaitInOrder() throws {
    let loop = try EventLoop()
    let thread = Thread { loop.run() }
    thread.start()
    let lane = LoopBox<FileLane>()
    let gate = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let submitted = DispatchSemaphore(value: 0)
    let order = Mutex<[Int]>([])
    let observed = Mutex<(running: Int, queued: Int)>((0, 0))

    loop.execute {
      let fileLane = FileLane(loop: loop, width: 2)
      lane.value = fileLane
      for i in 0..<4 {
        fileLane.run({ () -> Int in
          started.signal()
          gate.wait()
          return i
        }, then: { value in
          order.withLock { $0.append(value) }
          finished.signal()
        })
      }
      observed.withLock { $0 = (fileLane.running, fileLane.queued) }
      submitted.signal()
    }
    #expect(submitted.wait(timeout: .now() + 10) == .success)
    #expect(started.wait(timeout: .now() + 10) == .success)
    #expect(started.wait(timeout: .now() + 10) == .success)
    let (running, queued) = observed.withLock { $0 }
    #expect(running == 2)
    #expect(queued == 2)

    for _ in 0..<4 { gate.signal() }
    for _ in 0..<4 { #expect(finished.wait(timeout: .now() + 10) == .success) }
    #expect(order.withLock { Set($0) } == [0, 1, 2, 3])
    let done = DispatchSemaphore(value: 0)
    loop.execute {
      observed.withLock { $0 = (lane.value!.running, lane.value!.queued) }
      lane.value = nil
      loop.closeWakeup()
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(observed.withLock { $0.running } == 0)
    #expect(observed.withLock { $0.queued } == 0)
  }
}

/// Holds a loop-confined object for a test; touched only on the loop thread.
private final class LoopBox<T>: @unchecked Sendable {
  var value: T?
}
