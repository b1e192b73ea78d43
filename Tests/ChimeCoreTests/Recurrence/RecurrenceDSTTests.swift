import ChimeCore
import Foundation
import Testing

/// Clock changes under RFC 5545 section 3.3.5: a wall time in a gap is read with the offset
/// before the gap; one in an overlap fires at its first occurrence.
@Suite struct RecurrenceDSTTests {
  typealias S = RecurrenceSupport

  @Test func aWallTimeInAGapUsesTheOffsetBeforeIt() throws {
    // Europe/Berlin springs forward on 2027-03-28 at 02:00 +01:00: 02:30 fires at 03:30 +02:00.
    let fires = try S.fires("FREQ=DAILY", "2027-03-27T02:30", zone: "Europe/Berlin", after: "2027-03-27T00:00:00Z", count: 3)
    #expect(fires.map(\.utcISO8601) == ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"])
    #expect(fires.map(\.localISO8601) == ["2027-03-27T02:30:00+01:00", "2027-03-28T03:30:00+02:00", "2027-03-29T02:30:00+02:00"])
    #expect(fires[1].dstNote == "02:30 does not exist on 2027-03-28 (DST gap); fires at 03:30 +02:00, read with the offset before the gap")
    #expect(fires[0].dstNote == nil && fires[2].dstNote == nil)
  }

  @Test func aWallTimeInAnOverlapFiresOnceAtItsFirstOccurrence() throws {
    // Europe/Berlin falls back on 2027-10-31 at 03:00 +02:00: 02:30 happens at +02:00 and +01:00.
    let fires = try S.fires("FREQ=DAILY", "2027-10-30T02:30", zone: "Europe/Berlin", after: "2027-10-30T00:00:00Z", count: 3)
    #expect(fires.map(\.utcISO8601) == ["2027-10-30T00:30:00Z", "2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z"])
    #expect(fires[1].dstNote == "02:30 occurs twice on 2027-10-31 (DST overlap); fires once, at the first (+02:00)")
  }

  @Test func twoWallTimesOnOneInstantFireOnce() throws {
    // America/New_York, 2026-03-08: 02:00 is in the gap and reads as 03:00 EDT, which the
    // rule makes too. The rule makes both; they fire once.
    let rule = "FREQ=DAILY;BYHOUR=2,3;COUNT=6"
    #expect(try S.walls(rule, "2026-03-07T00:00").count == 6)
    let fires = try S.fires(rule, "2026-03-07T00:00", zone: "America/New_York", after: "2026-03-07T00:00:00Z", count: 6)
    #expect(fires.map(\.utcISO8601) == ["2026-03-07T07:00:00Z", "2026-03-07T08:00:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:00:00Z",
                                        "2026-03-09T07:00:00Z"])
  }

  @Test func aGapOccurrenceMayComeAfterALaterWallTime() throws {
    // 02:30 in the gap fires at 03:30 EDT, after 03:00 EDT: fires come in instant order.
    let fires = try S.fires("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30;COUNT=8", "2026-03-08T00:00", zone: "America/New_York",
                            after: "2026-03-08T00:00:00Z", count: 8)
    #expect(fires.map(\.localISO8601) == ["2026-03-08T03:00:00-04:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:00:00-04:00",
                                          "2026-03-09T02:30:00-04:00", "2026-03-09T03:00:00-04:00", "2026-03-09T03:30:00-04:00"])
  }

  @Test func aDayTheZoneSkippedReadsWithTheOffsetBefore() throws {
    // Pacific/Apia went from -10:00 to +14:00 at the end of 2011-12-29: 2011-12-30 09:00 -10:00
    // is 2011-12-31 09:00 +14:00, which the rule makes as well; one fire.
    let walls = try S.walls("FREQ=DAILY;COUNT=4", "2011-12-29T09:00", zone: "Pacific/Apia")
    #expect(walls == ["2011-12-29T09:00:00", "2011-12-30T09:00:00", "2011-12-31T09:00:00", "2012-01-01T09:00:00"])
    let fires = try S.fires("FREQ=DAILY;COUNT=4", "2011-12-29T09:00", zone: "Pacific/Apia", after: "2011-12-29T00:00:00Z", count: 4)
    #expect(fires.map(\.localISO8601) == ["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"])
  }

  @Test func halfHourAndOddOffsets() throws {
    // Australia/Lord_Howe moves by 30 minutes (02:00 -> 02:30 on 2027-10-03); Pacific/Chatham
    // is +12:45 / +13:45 and springs forward at 02:45 (2027-09-26).
    let lordHowe = try S.fires("FREQ=DAILY", "2027-10-02T02:15", zone: "Australia/Lord_Howe", after: "2027-10-01T00:00:00Z", count: 3)
    #expect(lordHowe.map(\.localISO8601) == ["2027-10-02T02:15:00+10:30", "2027-10-03T02:45:00+11:00", "2027-10-04T02:15:00+11:00"])
    let chatham = try S.fires("FREQ=WEEKLY", "2027-09-19T03:00", zone: "Pacific/Chatham", after: "2027-09-01T00:00:00Z", count: 2)
    #expect(chatham.map(\.localISO8601) == ["2027-09-19T03:00:00+12:45", "2027-09-26T04:00:00+13:45"])
  }
}
