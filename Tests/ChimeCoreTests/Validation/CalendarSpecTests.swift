import ChimeCore
import Testing

@Suite struct CalendarSpecTests {
  @Test func parsesComponentsAndNames() throws {
    let c = try CalendarSpec.parse("weekday=mon, hour=9,minute=30", timeZone: "Europe/Berlin")
    #expect(c.weekday == 2 && c.hour == 9 && c.minute == 30 && c.second == nil)
    #expect(c.timeZone == "Europe/Berlin")
    let last = try CalendarSpec.parse("weekday=fri,ordinal=-1,hour=17")
    #expect(last.weekdayOrdinal == -1 && last.weekday == 6)
    #expect(try CalendarSpec.parse("week_of_year=53,year-for-week-of-year=2026").weekOfYear == 53)
  }

  @Test(arguments: ["", "hour", "hour=nine", "fortnight=2", "hour=9,,=3"])
  func refusesNonsense(_ text: String) {
    #expect(throws: ChimeError.self) { try CalendarSpec.parse(text) }
  }

  @Test func previewOfARepeatingIntervalAndACalendarTrigger() throws {
    let t0 = Instant(unixMillis: 1_800_000_000_000)
    let interval = try TriggerPlanner.preview(.timeInterval(.init(seconds: 90, repeats: true)), after: t0, count: 3)
    #expect(interval.map(\.instant) == [t0.adding(seconds: 90), t0.adding(seconds: 180), t0.adding(seconds: 270)])
    #expect(try TriggerPlanner.preview(.timeInterval(.init(seconds: 90)), after: t0, count: 3).count == 1)
    var components = CalendarComponents()
    components.hour = 9
    components.timeZone = "UTC"
    let daily = try TriggerPlanner.preview(.calendar(CalendarTrigger(components: components, repeats: true)), after: t0, count: 2)
    #expect(daily.count == 2)
    #expect(daily[1].instant.millis(since: daily[0].instant) == 86_400_000)
    #expect(throws: ChimeError.self) { try TriggerPlanner.preview(.timeInterval(.init(seconds: 90)), after: t0, count: 0) }
  }
}
