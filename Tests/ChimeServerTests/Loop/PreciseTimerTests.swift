import ChimeSystem
@testable import ChimeServer
import ChimeCore
import ChimeTestSupport
import Dispatch
import Foundation
import Glibc
import Testing

/// The scheduler's timer: a timerfd that is never early and re-arms cleanly.
@Suite(.testTimeLimit) struct PreciseTimerTests {
  /// Monotonic microseconds.
  static func monotonicMicros() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
  }

  /// Arms a fresh timer on its own loop with each wait in turn (re-arming replaces the wait
  /// before), and returns how long after the last arm it fired, in microseconds; nil if it
  /// never did within 10 s.
  static func firedAfter(arming waits: [Int64]) throws -> Int64? {
    let loop = try EventLoop()
    Thread { loop.run() }.start()
    let fired = DispatchSemaphore(value: 0)
    let elapsed = Locked<Int64?>(nil)
    let fires = Locked(0)
    loop.execute {
      var armedAt: Int64 = 0
      var timer: PreciseTimer?
      timer = PreciseTimer(loop: loop) {
        elapsed.withLock { $0 = monotonicMicros() - armedAt }
        fires.withLock { $0 += 1 }
        timer?.close()
        loop.closeWakeup()
        fired.signal()
      }
      for wait in waits {
        armedAt = monotonicMicros()
        timer?.arm(afterMicros: wait)
      }
    }
    guard fired.wait(timeout: .now() + 10) == .success else { return nil }
    #expect(fires.withLock { $0 } == 1, "a re-armed timer fires once")
    return elapsed.withLock { $0 }
  }

  @Test func itIsNeverEarly() throws {
    for wait: Int64 in [1_500, 7_250] {
      let after = try #require(try Self.firedAfter(arming: [wait]))
      #expect(after >= wait, "armed for \(wait) µs, fired after \(after) µs")
    }
  }

  @Test func reArmingReplacesTheEarlierWait() throws {
    // Armed for 5 s, then for 2 ms: it fires for the second arm, not after 5 s.
    let after = try #require(try Self.firedAfter(arming: [5_000_000, 2_000]))
    #expect(after >= 2_000)
    #expect(after < 5_000_000)
  }

  @Test func aWaitOfZeroFiresAtTheNextTurnNotNever() throws {
    #expect(try Self.firedAfter(arming: [0]) != nil)
  }
}
