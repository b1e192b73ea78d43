import ChimeCore
import ChimeSystem
import Foundation
import Testing

/// The real-time clock read with clock_gettime(2) agrees with Foundation's `Date()`.
@Suite struct SystemWallClockTests {
  static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

  @Test func nowIsBetweenTwoDatesToTheMillisecond() {
    let clock = SystemWallClock()
    for _ in 0..<100 {
      let before = Date()
      let now = clock.now()
      let after = Date()
      // Both round to the nearest millisecond, a read between two reads between them; give a
      // millisecond for a Date's microseconds (gettimeofday) rounding a half the other way.
      #expect(Self.millis(before) - 1 <= now.unixMillis && now.unixMillis <= Self.millis(after) + 1,
              "\(before.timeIntervalSince1970) \(now.unixMillis) \(after.timeIntervalSince1970)")
    }
  }

  @Test func nowMicrosIsBetweenTwoDatesToTheMicrosecond() {
    let clock = SystemWallClock()
    for _ in 0..<100 {
      let before = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down))
      let micros = clock.nowMicros()
      let after = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.up))
      // A Date's Double is off by up to a microsecond at today's seconds.
      #expect(before - 1 <= micros && micros <= after + 1, "\(before) \(micros) \(after)")
      // The same instant at the two resolutions.
      #expect(abs(clock.now().unixMillis * 1000 - micros) < 1_000_000)
    }
  }

  @Test func anOffsetClockIsShiftedByItsOffset() {
    let offset = OffsetWallClock(offsetMillis: 86_400_000)
    let before = SystemWallClock().now()
    let shifted = offset.now()
    let after = SystemWallClock().now()
    #expect(before.adding(millis: 86_400_000) <= shifted && shifted <= after.adding(millis: 86_400_000))
  }
}
