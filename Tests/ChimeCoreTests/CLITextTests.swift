import ChimeCore
import Foundation
import Testing

@Suite struct CLITextTests {
  @Test func instantsWithAndWithoutOffset() throws {
    let berlin = try #require(Zone.named("Europe/Berlin"))
    let z = try #require(InstantText.parse("2026-11-24T08:30:00Z", zone: berlin))
    #expect(z.assumedZone == nil)
    #expect(z.unixSeconds == 1_795_509_000 && z.fraction == 0)
    let offset = try #require(InstantText.parse("2026-11-24T09:30:00+01:00", zone: berlin))
    #expect(offset.instant == z.instant)
    let local = try #require(InstantText.parse("2026-11-24 09:30", zone: berlin))
    #expect(local.instant == z.instant)
    #expect(local.assumedZone == "Europe/Berlin")
    #expect(InstantText.parse("2026-11-24", zone: berlin) != nil)
    #expect(InstantText.parse("2026-13-24", zone: berlin) == nil)
    #expect(InstantText.parse("tomorrow", zone: berlin) == nil)
  }

  @Test func calendarSpecRoundTripsAndRefusesRepeats() throws {
    let c = try CalendarSpec.parse("weekday = mon, hour=9,minute = 30")
    #expect(CalendarSpec.format(c) == "weekday=mon,hour=9,minute=30")
    #expect(throws: ChimeError.self) { try CalendarSpec.parse("hour=9,hour=10") }
    let instant = CalendarSpec.instant(unixSeconds: 1_795_509_000)
    #expect(CalendarSpec.isInstant(instant))
    #expect(instant.hour == 8 && instant.minute == 30)
  }

  /// Found by fuzzing (Fuzz/run.sh duration): a huge duration crashed the CLI printing it.
  @Test func hugeDurationsAreRefusedAndNeverTrap() {
    let huge = String(repeating: "7", count: 36) + "6d"
    #expect(DurationText.parse(huge) == nil)
    #expect(DurationText.parse("100000000000000s") == 1e14)
    for seconds in [1e300, -1e300, Double.infinity, .nan, 9.3e15] {
      _ = DurationText.format(seconds)
      _ = DurationText.exact(seconds)
      _ = Instant(unixMillis: 0).adding(seconds: seconds)
    }
    #expect(Instant(unixMillis: 0).adding(seconds: 1e300) > Instant(unixMillis: 0).adding(seconds: 1e9))
  }

  @Test func exactDurationsParseBack() {
    for seconds in [90.0, 5400, 93784, 0.25, 60] {
      #expect(DurationText.parse(DurationText.exact(seconds)) == seconds)
    }
    #expect(EditDistance.between("pendng", "pending") == 1)
  }
}
