@testable import ChimeCore
import Testing

/// Calendar patterns as RRULEs (`chime export --ics`): the rule text, and for every rule
/// Chime's own engine reads (DAILY and coarser), the same fires as the pattern.
@Suite struct CalendarTriggerRuleTests {
  func components(_ spec: String, tz: String? = "Europe/Berlin") throws -> CalendarComponents {
    try CalendarSpec.parse(spec, timeZone: tz)
  }

  func rule(_ spec: String) throws -> String? {
    try? CalendarTrigger(components: components(spec), repeats: true).equivalentRule().get()
  }

  @Test func patternsBecomeTheirRule() throws {
    #expect(try rule("hour=9,minute=30") == "FREQ=DAILY;BYHOUR=9;BYMINUTE=30")
    #expect(try rule("weekday=mon,hour=9") == "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9")
    #expect(try rule("weekday=mon+wed+fri,hour=8,minute=0") == "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=8;BYMINUTE=0")
    #expect(try rule("day=1,hour=9") == "FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9")
    #expect(try rule("month=12,day=25,hour=8") == "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25;BYHOUR=8")
    #expect(try rule("minute=30") == "FREQ=HOURLY;BYMINUTE=30")
    #expect(try rule("second=15") == "FREQ=MINUTELY;BYSECOND=15")
    #expect(try rule("hour=9,second=30") == "FREQ=MINUTELY;BYHOUR=9;BYSECOND=30")
    #expect(try rule("month=12,hour=9") == "FREQ=DAILY;BYMONTH=12;BYHOUR=9")
    // Foundation's weekday numbering (1 = Sunday) becomes RFC 5545's codes.
    #expect(try rule("weekday=sun,hour=10") == "FREQ=WEEKLY;BYDAY=SU;BYHOUR=10")
  }

  @Test func patternsWithoutARuleSayWhy() throws {
    var c = try components("hour=9")
    c.weekOfYear = 3
    let gap = CalendarTrigger(components: c, repeats: true).equivalentRule()
    guard case .failure(let reason) = gap else { Issue.record("a week-of-year pattern got a rule"); return }
    #expect(reason.message.contains("week"))
    #expect(try rule("year=2099,month=5,day=1") == nil)
  }

  /// For each pattern, the rule read by Chime's RFC 5545 engine from the pattern's first fire
  /// gives the pattern's next 40 fires (across both 2027 clock changes in Berlin).
  @Test(arguments: ["hour=9,minute=30", "weekday=mon,hour=9", "weekday=tue+thu,hour=18,minute=45", "day=1,hour=9",
                    "day=31,hour=7", "month=2,day=29,hour=12", "month=12,day=25,hour=8", "weekday=fri,day=13,hour=12",
                    "weekday=mon,hour=2,minute=30", "hour=23,minute=59,second=59"])
  func theRuleFiresAsThePatternDoes(_ spec: String) throws {
    let trigger = CalendarTrigger(components: try components(spec), repeats: true)
    let berlin = try #require(Zone.named("Europe/Berlin"))
    let after = Instant(unixMillis: 1_798_761_600_000)  // 2027-01-01T00:00:00Z
    let fires = CalendarEngine.nextFires(after: after, count: 40, trigger: trigger, zone: berlin).map(\.instant)
    let text = try trigger.equivalentRule().get()
    let start = RequestExport.wall(fires[0], berlin)
    let recurrence = try Recurrence(rule: text, start: start.description, timeZone: "Europe/Berlin")
    let ruled = RecurrenceEngine.nextFires(after: after, count: 40, recurrence: recurrence, zone: berlin).map(\.instant)
    #expect(ruled == fires, "\(spec) as \(text)")
  }

  @Test func intervalsBecomeTheirCoarsestUnit() {
    #expect(RequestExport.intervalRule(60) == "FREQ=MINUTELY")
    #expect(RequestExport.intervalRule(90) == "FREQ=SECONDLY;INTERVAL=90")
    #expect(RequestExport.intervalRule(7200) == "FREQ=HOURLY;INTERVAL=2")
    #expect(RequestExport.intervalRule(86_400 * 3) == "FREQ=DAILY;INTERVAL=3")
    #expect(RequestExport.intervalRule(604_800 * 2) == "FREQ=WEEKLY;INTERVAL=2")
  }

  @Test func base64RoundTrips() {
    for n in 0..<40 {
      let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
      #expect(Base64Text.decode(Base64Text.encode(bytes)) == bytes)
    }
    #expect(Base64Text.encode(Array("Man".utf8)) == "TWFu")
    #expect(Base64Text.encode(Array("Ma".utf8)) == "TWE=")
    #expect(Base64Text.decode("TWE") == nil)
    #expect(Base64Text.decode("TW!=") == nil)
  }
}
