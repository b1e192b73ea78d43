import ChimeCore
import Foundation
import Testing

/// Clock changes, both directions, under each policy, with the exact instants and notes.
@Suite struct CalendarDSTTests {
  typealias S = CalendarTestSupport

  func utc(_ fires: [FireDate]) -> [String] { fires.map(\.utcISO8601) }

  // MARK: Spring forward (gap)

  @Test func berlinGapNextValidFiresAtTheEndOfTheGap() throws {
    let t = S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 }
    let fires = S.fires(t, after: "2027-03-27T12:00:00Z", count: 3)
    #expect(utc(fires) == ["2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"])
    #expect(fires[0].localISO8601 == "2027-03-28T03:00:00+02:00")
    #expect(fires[0].utcOffsetSeconds == 7200)
    #expect(fires[0].zoneIdentifier == "Europe/Berlin")
    #expect(fires[0].dstNote == "02:30 does not exist on 2027-03-28 (DST gap); fires at 03:00 +02:00")
    #expect(fires[1].dstNote == nil)
  }

  @Test func berlinGapSkip() {
    let t = S.trigger(zone: "Europe/Berlin", gap: .skip) { $0.hour = 2; $0.minute = 30 }
    #expect(utc(S.fires(t, after: "2027-03-27T12:00:00Z", count: 2)) == ["2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"])
  }

  @Test func newYorkGap() {
    let next = S.trigger(zone: "America/New_York") { $0.hour = 2; $0.minute = 30 }
    #expect(utc(S.fires(next, after: "2027-03-13T12:00:00Z", count: 2)) == ["2027-03-14T07:00:00Z", "2027-03-15T06:30:00Z"])
    let skip = S.trigger(zone: "America/New_York", gap: .skip) { $0.hour = 2; $0.minute = 30 }
    #expect(utc(S.fires(skip, after: "2027-03-13T12:00:00Z", count: 1)) == ["2027-03-15T06:30:00Z"])
  }

  /// Lord Howe moves 30 minutes: 02:00 -> 02:30.
  @Test func lordHoweHalfHourGap() {
    let t = S.trigger(zone: "Australia/Lord_Howe") { $0.hour = 2; $0.minute = 15 }
    let fires = S.fires(t, after: "2026-10-03T00:00:00Z", count: 2)
    #expect(utc(fires) == ["2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"])
    #expect(fires[0].localISO8601 == "2026-10-04T02:30:00+11:00")
    let skip = S.trigger(zone: "Australia/Lord_Howe", gap: .skip) { $0.hour = 2; $0.minute = 15 }
    #expect(utc(S.fires(skip, after: "2026-10-03T00:00:00Z", count: 1)) == ["2026-10-04T15:15:00Z"])
  }

  /// Chatham: +12:45 -> +13:45 at 02:45 local.
  @Test func chathamGap() {
    let t = S.trigger(zone: "Pacific/Chatham") { $0.hour = 3; $0.minute = 0 }
    let fires = S.fires(t, after: "2026-09-26T00:00:00Z", count: 1)
    #expect(utc(fires) == ["2026-09-26T14:00:00Z"])
    #expect(fires.first?.localISO8601 == "2026-09-27T03:45:00+13:45")
  }

  /// Brazil changed clocks at midnight: Sunday 00:00 did not exist on DST Sundays.
  @Test func saoPauloMidnightGap() {
    let t = S.trigger(zone: "America/Sao_Paulo") { $0.weekday = 1 }
    let fires = S.fires(t, after: "2018-10-30T00:00:00Z", count: 2)
    #expect(utc(fires) == ["2018-11-04T03:00:00Z", "2018-11-11T02:00:00Z"])
    #expect(fires.first?.dstNote == "00:00 does not exist on 2018-11-04 (DST gap); fires at 01:00 -02:00")
  }

  /// Several matching wall times inside one gap fire once, at its end.
  @Test func gapMatchesCoalesce() {
    let t = S.trigger(zone: "Europe/Berlin") { $0.second = 0 }  // every minute
    let fires = S.fires(t, after: "2027-03-28T00:58:30Z", count: 3)
    #expect(utc(fires) == ["2027-03-28T00:59:00Z", "2027-03-28T01:00:00Z", "2027-03-28T01:01:00Z"])
  }

  // MARK: Fall back (overlap)

  @Test func berlinOverlapFirst() {
    let t = S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 }
    let fires = S.fires(t, after: "2026-10-24T12:00:00Z", count: 2)
    #expect(utc(fires) == ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"])
    #expect(fires[0].dstNote == "02:30 occurs twice on 2026-10-25 (DST overlap); fires once, at the first (+02:00)")
    // Starting between the two occurrences does not fire the second.
    #expect(utc(S.fires(t, after: "2026-10-25T01:00:00Z", count: 1)) == ["2026-10-26T01:30:00Z"])
  }

  @Test func berlinOverlapBoth() {
    let t = S.trigger(zone: "Europe/Berlin", overlap: .both) { $0.hour = 2; $0.minute = 30 }
    let fires = S.fires(t, after: "2026-10-24T12:00:00Z", count: 3)
    #expect(utc(fires) == ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-26T01:30:00Z"])
    #expect(fires.map(\.utcOffsetSeconds) == [7200, 3600, 3600])
    #expect(fires[1].dstNote == "02:30 occurs twice on 2026-10-25 (DST overlap); fires at both, this is the second (+01:00)")
    // Starting between the two occurrences fires the second.
    #expect(utc(S.fires(t, after: "2026-10-25T01:00:00Z", count: 1)) == ["2026-10-25T01:30:00Z"])
  }

  @Test func newYorkOverlap() {
    let first = S.trigger(zone: "America/New_York") { $0.hour = 1; $0.minute = 30 }
    #expect(utc(S.fires(first, after: "2026-10-31T12:00:00Z", count: 2)) == ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
    let both = S.trigger(zone: "America/New_York", overlap: .both) { $0.hour = 1; $0.minute = 30 }
    #expect(utc(S.fires(both, after: "2026-10-31T12:00:00Z", count: 3)) == ["2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"])
  }

  /// Lord Howe moves back 30 minutes: 02:00 -> 01:30.
  @Test func lordHoweHalfHourOverlap() {
    let both = S.trigger(zone: "Australia/Lord_Howe", overlap: .both) { $0.hour = 1; $0.minute = 45 }
    let fires = S.fires(both, after: "2026-04-04T00:00:00Z", count: 3)
    #expect(utc(fires) == ["2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z", "2026-04-05T15:15:00Z"])
    #expect(fires.map(\.utcOffsetSeconds) == [39600, 37800, 37800])
    let first = S.trigger(zone: "Australia/Lord_Howe") { $0.hour = 1; $0.minute = 45 }
    #expect(utc(S.fires(first, after: "2026-04-04T00:00:00Z", count: 2)) == ["2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"])
  }

  /// Chatham: +13:45 -> +12:45 at 03:45 local.
  @Test func chathamOverlap() {
    let both = S.trigger(zone: "Pacific/Chatham", overlap: .both) { $0.hour = 3; $0.minute = 0 }
    #expect(utc(S.fires(both, after: "2026-04-04T00:00:00Z", count: 2)) == ["2026-04-04T13:15:00Z", "2026-04-04T14:15:00Z"])
  }

  /// Hourly across a fall-back night: `.first` leaves a two-hour step, `.both` fires every hour.
  @Test func hourlyAcrossOverlap() {
    let first = S.trigger(zone: "Europe/Berlin") { $0.minute = 30 }
    #expect(utc(S.fires(first, after: "2026-10-24T22:00:00Z", count: 4)) == [
      "2026-10-24T22:30:00Z", "2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T02:30:00Z",
    ])
    let both = S.trigger(zone: "Europe/Berlin", overlap: .both) { $0.minute = 30 }
    #expect(utc(S.fires(both, after: "2026-10-24T22:00:00Z", count: 5)) == [
      "2026-10-24T22:30:00Z", "2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-25T02:30:00Z",
    ])
  }

  /// Hourly across a spring-forward night: 02:30 fires at 03:00, then 03:30.
  @Test func hourlyAcrossGap() {
    let t = S.trigger(zone: "Europe/Berlin") { $0.minute = 30 }
    #expect(utc(S.fires(t, after: "2027-03-27T23:00:00Z", count: 4)) == [
      "2027-03-27T23:30:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:00:00Z", "2027-03-28T01:30:00Z",
    ])
  }

  // MARK: Apia skipped 2011-12-30

  @Test func apiaSkippedDayNextValid() {
    let t = S.trigger(zone: "Pacific/Apia") { $0.hour = 9 }
    let fires = S.fires(t, after: "2011-12-28T12:00:00Z", count: 5)
    #expect(fires.map(\.localISO8601) == [
      "2011-12-28T09:00:00-10:00", "2011-12-29T09:00:00-10:00", "2011-12-31T00:00:00+14:00",
      "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00",
    ])
    #expect(fires[2].dstNote == "09:00 does not exist on 2011-12-30 (DST gap); fires at 2011-12-31 00:00 +14:00")
  }

  @Test func apiaSkippedDaySkip() {
    let t = S.trigger(zone: "Pacific/Apia", gap: .skip) { $0.hour = 9 }
    #expect(S.fires(t, after: "2011-12-28T12:00:00Z", count: 3).map(\.localISO8601) == [
      "2011-12-28T09:00:00-10:00", "2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00",
    ])
  }

  @Test func apiaSkippedDateItself() throws {
    let next = S.trigger(zone: "Pacific/Apia", repeats: false) { $0.year = 2011; $0.month = 12; $0.day = 30; $0.hour = 12 }
    #expect(S.fires(next, after: "2011-01-01T00:00:00Z", count: 2).map(\.localISO8601) == ["2011-12-31T00:00:00+14:00"])
    let skip = S.trigger(zone: "Pacific/Apia", repeats: false, gap: .skip) { $0.year = 2011; $0.month = 12; $0.day = 30; $0.hour = 12 }
    let error = #expect(throws: ChimeError.self) {
      _ = try CalendarEngine.firstFire(after: S.instant("2011-01-01T00:00:00Z"), trigger: skip, zone: .current, field: "request.trigger.calendar")
    }
    #expect(error?.reason == "NOTIFICATION_INVALID_NO_DATE")
  }

  /// Midnight triggers on days when the clock jumps at midnight still fire that day.
  @Test func apiaMidnightOnTheDayAfterTheSkip() {
    let t = S.trigger(zone: "Pacific/Apia") { $0.day = 31; $0.month = 12 }
    #expect(S.fires(t, after: "2011-12-01T00:00:00Z", count: 1).map(\.localISO8601) == ["2011-12-31T00:00:00+14:00"])
  }
}
