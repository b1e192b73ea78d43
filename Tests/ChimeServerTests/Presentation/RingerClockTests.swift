import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Dispatch
import Foundation
import Logging
import Testing

@testable import ChimeServer

/// A ring lasts its duration whatever the wall clock does meanwhile: set back an hour, it does
/// not ring an hour longer (its end also holds on the monotonic clock).
@Suite(.testTimeLimit) struct RingerClockTests {
  /// A loop on its own thread, a manual wall clock, a monotonic clock moved by hand, and a
  /// ringer (no sound player) on them.
  final class Rig: @unchecked Sendable {
    let loop: EventLoop
    let clock = ManualWallClock()
    let monotonic = Locked<Int64>(5_000_000)
    let ended = Locked<[RingEnd]>([])
    var ringer: Ringer?  // loop thread only

    init() throws {
      loop = try EventLoop()
      let loop = self.loop
      Thread { loop.run() }.start()
      _ = onLoop { [self] in
        let ringer = Ringer(loop: loop, clock: clock, sounds: nil, logger: Logger(label: "test"),
                            monotonicMillis: { [monotonic] in monotonic.withLock { $0 } })
        ringer.ended = { [ended] _, _, why in ended.withLock { $0.append(why) } }
        self.ringer = ringer
      }
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

    func stop() {
      _ = onLoop { [self] in
        ringer?.stop()
        ringer = nil
        loop.closeWakeup()
      }
    }
  }

  @Test func aClockSetBackDoesNotMakeARingLonger() throws {
    let rig = try Rig()
    defer { rig.stop() }
    var content = NotificationContent(title: "Wake up")
    content.ring = Ring(seconds: 60)
    content.sound = .default
    let now = rig.clock.now()
    let delivered = DeliveredNotification(request: NotificationRequest(identifier: "wake", content: content), delivered: now, due: now)
    _ = rig.onLoop { [rig] in rig.ringer?.start(delivered, app: "org.example.alarm") }
    // An hour back, 30 s into the ring: it still rings.
    rig.clock.advance(seconds: -3600)
    rig.monotonic.withLock { $0 += 30_000 }
    _ = rig.onLoop { [rig] in rig.ringer?.check() }
    #expect(rig.ended.withLock { $0 }.isEmpty)
    // 61 s after it started, by the monotonic clock: it has timed out, though the wall clock
    // says it has an hour left.
    rig.monotonic.withLock { $0 += 31_000 }
    _ = rig.onLoop { [rig] in rig.ringer?.check() }
    #expect(rig.ended.withLock { $0 } == [.timedOut])
  }
}
