import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// A thread parked for the next piece of work: woken by a permit given before or during its
/// wait, never missing one, and back on its own once its time runs out.
@Suite(.testTimeLimit) struct ParkingTests {
  @Test func aWakeGivenBeforeTheWaitIsKept() {
    let parking = Parking()
    parking.wake()
    parking.wake()
    #expect(parking.wait(nanoseconds: 0), "the first permit")
    #expect(parking.wait(nanoseconds: 0), "the second: permits add up")
    #expect(!parking.wait(nanoseconds: 0), "none left")
  }

  @Test func aWaiterIsWokenByAnotherThread() {
    let parking = Parking()
    let woken = Locked<Bool?>(nil)
    Thread { woken.withLock { $0 = parking.wait(nanoseconds: nil) } }.start()
    parking.wake()
    #expect(pollUntil(within: 10) { woken.withLock { $0 } != nil })
    #expect(woken.withLock { $0 } == true)
  }

  @Test func aTimedWaitWithoutAWakeRunsOut() {
    let parking = Parking()
    #expect(!parking.wait(nanoseconds: 1_000_000))
    parking.wake()
    #expect(parking.wait(nanoseconds: 1_000_000), "a later permit is still taken")
  }
}
