import ChimeCore
import Foundation
import Testing

/// Expansion of RFC 5545 rules on wall times: the examples of RFC 5545 section 3.8.5.3 (in
/// America/New_York, as there), and the parts the start supplies.
@Suite struct RecurrenceExpansionTests {
  typealias S = RecurrenceSupport

  struct Example: Sendable, CustomStringConvertible {
    var rule: String
    var start: String
    var walls: [String]
    var count: Int = 100
    var description: String { rule }
  }

  static let examples: [Example] = [
    // Daily for 10 occurrences.
    Example(rule: "FREQ=DAILY;COUNT=10", start: "1997-09-02T09:00",
            walls: (2...11).map { "1997-09-\($0 < 10 ? "0" : "")\($0)T09:00:00" }),
    // Monthly on the first Friday for 10 occurrences.
    Example(rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", start: "1997-09-05T09:00",
            walls: ["1997-09-05", "1997-10-03", "1997-11-07", "1997-12-05", "1998-01-02", "1998-02-06", "1998-03-06",
                    "1998-04-03", "1998-05-01", "1998-06-05"].map { $0 + "T09:00:00" }),
    // Monthly on the second-to-last Monday for 6 months.
    Example(rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", start: "1997-09-22T09:00",
            walls: ["1997-09-22", "1997-10-20", "1997-11-17", "1997-12-22", "1998-01-19", "1998-02-16"].map { $0 + "T09:00:00" }),
    // The third instance of one of Tuesday, Wednesday or Thursday, for 3 months.
    Example(rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", start: "1997-09-04T09:00",
            walls: ["1997-09-04", "1997-10-07", "1997-11-06"].map { $0 + "T09:00:00" }),
    // The second-to-last weekday of the month.
    Example(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", start: "1997-09-29T09:00",
            walls: ["1997-09-29", "1997-10-30", "1997-11-27", "1997-12-30", "1998-01-29", "1998-02-26", "1998-03-30"].map { $0 + "T09:00:00" },
            count: 7),
    // Every Friday the 13th (the start is not an occurrence).
    Example(rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", start: "1997-09-02T09:00",
            walls: ["1998-02-13", "1998-03-13", "1998-11-13", "1999-08-13", "2000-10-13"].map { $0 + "T09:00:00" }, count: 5),
    // Monday of week number 20.
    Example(rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", start: "1997-05-12T09:00",
            walls: ["1997-05-12", "1998-05-11", "1999-05-17"].map { $0 + "T09:00:00" }, count: 3),
    // Every 20th Monday of the year.
    Example(rule: "FREQ=YEARLY;BYDAY=20MO", start: "1997-05-19T09:00",
            walls: ["1997-05-19", "1998-05-18", "1999-05-17"].map { $0 + "T09:00:00" }, count: 3),
    // Every Thursday in March.
    Example(rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", start: "1997-03-13T09:00",
            walls: ["1997-03-13", "1997-03-20", "1997-03-27", "1998-03-05", "1998-03-12", "1998-03-19", "1998-03-26", "1999-03-04"]
              .map { $0 + "T09:00:00" }, count: 8),
    // US presidential election day: the first Tuesday after a Monday in November, every 4 years.
    Example(rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", start: "1996-11-05T09:00",
            walls: ["1996-11-05", "2000-11-07", "2004-11-02"].map { $0 + "T09:00:00" }, count: 3),
    // Every third year on the 1st, 100th and 200th day, 10 occurrences.
    Example(rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", start: "1997-01-01T09:00",
            walls: ["1997-01-01", "1997-04-10", "1997-07-19", "2000-01-01", "2000-04-09", "2000-07-18", "2003-01-01", "2003-04-10",
                    "2003-07-19", "2006-01-01"].map { $0 + "T09:00:00" }),
    // WKST decides which days share a week of an INTERVAL=2 rule.
    Example(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", start: "1997-08-05T09:00",
            walls: ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"].map { $0 + "T09:00:00" }),
    Example(rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", start: "1997-08-05T09:00",
            walls: ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"].map { $0 + "T09:00:00" }),
    // An invalid date (30 February) is passed over, not moved.
    Example(rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", start: "2007-01-15T09:00",
            walls: ["2007-01-15", "2007-01-30", "2007-02-15", "2007-03-15", "2007-03-30"].map { $0 + "T09:00:00" }),
    // The last day of the month, and the 31st only where there is one.
    Example(rule: "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3", start: "2027-01-10T08:00",
            walls: ["2027-01-31T08:00:00", "2027-02-28T08:00:00", "2027-03-31T08:00:00"]),
    Example(rule: "FREQ=MONTHLY;COUNT=4", start: "2027-01-31T08:00",
            walls: ["2027-01-31T08:00:00", "2027-03-31T08:00:00", "2027-05-31T08:00:00", "2027-07-31T08:00:00"]),
    // The issue's example: the last weekday of each month at 17:00; the start is not one.
    Example(rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", start: "2026-12-01T17:00",
            walls: ["2026-12-31T17:00:00", "2027-01-29T17:00:00", "2027-02-26T17:00:00", "2027-03-31T17:00:00"], count: 4),
    // Times from BYHOUR and BYMINUTE, in order, with the start's second.
    Example(rule: "FREQ=DAILY;BYHOUR=17,9;BYMINUTE=30,0;COUNT=5", start: "2027-01-10T10:00:15",
            walls: ["2027-01-10T17:00:15", "2027-01-10T17:30:15", "2027-01-11T09:00:15", "2027-01-11T09:30:15", "2027-01-11T17:00:15"]),
    // Weekdays at 9, the common case.
    Example(rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=6", start: "2027-01-07T09:00",
            walls: ["2027-01-07", "2027-01-08", "2027-01-11", "2027-01-12", "2027-01-13", "2027-01-14"].map { $0 + "T09:00:00" }),
    // A start with the weekday, day and month the rule leaves out.
    Example(rule: "FREQ=YEARLY;COUNT=3", start: "2024-02-29T07:00",
            walls: ["2024-02-29T07:00:00", "2028-02-29T07:00:00", "2032-02-29T07:00:00"]),
  ]

  @Test("RFC 5545 examples", arguments: examples)
  func example(_ e: Example) throws {
    #expect(try S.walls(e.rule, e.start, count: e.count) == e.walls)
  }

  @Test func untilInUTCIsInclusive() throws {
    // Every day in January for 3 years, until 2000-01-31T14:00Z (09:00 EST, the last one).
    let walls = try S.walls("FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "1998-01-01T09:00")
    #expect(walls.count == 93)
    #expect(walls.first == "1998-01-01T09:00:00")
    #expect(walls.last == "2000-01-31T09:00:00")
    // One second earlier and the last day is gone.
    let shorter = try S.walls("FREQ=YEARLY;UNTIL=20000131T135959Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "1998-01-01T09:00")
    #expect(shorter.count == 92)
  }

  @Test func untilAsLocalTimeComparesWallTimes() throws {
    // Every other week on Monday, Wednesday and Friday until 24 December 1997.
    let walls = try S.walls("FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000;WKST=SU;BYDAY=MO,WE,FR", "1997-09-01T09:00")
    #expect(walls.count == 25)
    #expect(walls.last == "1997-12-22T09:00:00")
  }

  @Test func countCountsExcludedOccurrences() throws {
    let walls = try S.walls("FREQ=DAILY;COUNT=3", "2027-01-01T09:00", exclusions: ["2027-01-02T09:00"])
    #expect(walls == ["2027-01-01T09:00:00", "2027-01-03T09:00:00"])
    // An exclusion that matches no occurrence changes nothing.
    #expect(try S.walls("FREQ=DAILY;COUNT=2", "2027-01-01T09:00", exclusions: ["2027-01-02T09:30"]) == ["2027-01-01T09:00:00", "2027-01-02T09:00:00"])
  }

  @Test func nextFireAfterAnInstantCountsFromTheStart() throws {
    // 10,000 days from 2000-01-01: the scheduler asks in 2026 and in 2027 (the end is 2027-05-18).
    let r = try S.recurrence("FREQ=DAILY;COUNT=10000", "2000-01-01T09:00", zone: "UTC")
    let utc = Zone.named("UTC")!
    let next = RecurrenceEngine.nextFire(after: Instant(try Date("2026-01-01T00:00:00Z", strategy: .iso8601)), recurrence: r, zone: utc)
    #expect(next?.utcISO8601 == "2026-01-01T09:00:00Z")
    let last = RecurrenceEngine.nextFire(after: Instant(try Date("2027-05-18T08:59:59Z", strategy: .iso8601)), recurrence: r, zone: utc)
    #expect(last?.utcISO8601 == "2027-05-18T09:00:00Z")
    #expect(RecurrenceEngine.nextFire(after: Instant(try Date("2027-05-18T09:00:00Z", strategy: .iso8601)), recurrence: r, zone: utc) == nil)
  }

  @Test func nextFiresSkipExclusionsAndAreStrictlyAfter() throws {
    let fires = try S.fires("FREQ=WEEKLY;BYDAY=MO,WE", "2027-01-04T09:00", zone: "Europe/Berlin", after: "2027-01-04T08:00:00Z",
                            count: 3, exclusions: ["2027-01-06T09:00"])
    #expect(fires.map(\.utcISO8601) == ["2027-01-11T08:00:00Z", "2027-01-13T08:00:00Z", "2027-01-18T08:00:00Z"])
    #expect(fires.allSatisfy { $0.zoneIdentifier == "Europe/Berlin" && $0.utcOffsetSeconds == 3600 && $0.dstNote == nil })
  }

  @Test func aFloatingRecurrenceUsesTheZonePassedIn() throws {
    let r = try Recurrence(rule: "FREQ=DAILY", start: "2027-01-04T09:00", timeZone: nil)
    let tokyo = try #require(Zone.named("Asia/Tokyo"))
    let fire = RecurrenceEngine.nextFire(after: Instant(unixMillis: 0), recurrence: r, zone: tokyo)
    #expect(fire?.utcISO8601 == "2027-01-04T00:00:00Z")
    #expect(fire?.zoneIdentifier == "Asia/Tokyo")
  }
}
