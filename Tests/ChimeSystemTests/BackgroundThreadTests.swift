import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Glibc
import Testing

@Suite(.testTimeLimit) struct BackgroundThreadTests {
  /// The chore runs on a thread of its own under SCHED_IDLE (5), so the loop and the work pool
  /// keep the cores; the caller's thread keeps its own policy.
  @Test func aBackgroundChoreRunsAtIdlePriorityOnItsOwnThread() throws {
    let seen = Locked<(policy: Int32, sameThread: Bool)?>(nil)
    let caller = pthread_self()
    BackgroundThread.start(name: "test-chore") {
      let policy = sched_getscheduler(0)
      seen.withLock { $0 = (policy, pthread_equal(pthread_self(), caller) != 0) }
    }
    #expect(pollUntil(within: 10) { seen.withLock { $0 } != nil })
    let result = try #require(seen.withLock { $0 })
    #expect(result.policy == 5, "SCHED_IDLE")
    #expect(!result.sameThread)
    #expect(sched_getscheduler(0) == SCHED_OTHER)
  }
}
