import ChimeCore
import Testing

/// The planner on values built by hand: no libical, no files (ChimeCore is pure).
@Suite struct CalendarAlarmPlannerPureTests {
  static func wall(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }
  static func instant(_ text: String) -> Instant { InstantText.parse(text, zone: .utc)!.instant }
  static let fifteenBefore = CalendarAlarm(action: .display, trigger: .relative(CalendarDuration(seconds: -900), toEnd: false))

  static func ats(_ item: CalendarItem, _ after: String, _ until: String, zone: String = "UTC") -> [String] {
    let zones = CalendarZones(userZone: Zone.named(zone)!)
    return CalendarAlarmPlanner.plan(item, after: instant(after), until: instant(until), zones: zones).alarms
      .map { String($0.at.description.prefix(19)) + "Z" }
  }

  @Test func aDateUntilEndsAnAllDaySeriesOnThatDay() {
    let c = CalendarComponent(kind: .event, uid: "u", start: CalendarTime(Self.wall("2027-01-01T00:00"), .date),
                              rules: ["FREQ=DAILY;UNTIL=20270103"], alarms: [Self.fifteenBefore])
    #expect(Self.ats(CalendarItem(components: [c]), "2026-12-01T00:00:00Z", "2027-02-01T00:00:00Z")
      == ["2026-12-31T23:45:00Z", "2027-01-01T23:45:00Z", "2027-01-02T23:45:00Z"])
  }

  @Test func aVTimezoneOfItsOwnIsReadByItsRules() {
    // A zone no database knows: +01:00, +02:00 from the last Sunday of March at 02:00.
    let custom = CalendarTimeZone(id: "Custom Zone", observances: [
      .init(isDaylight: false, start: Self.wall("1970-10-25T03:00"), offsetFrom: 7200, offsetTo: 3600, rules: ["FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"]),
      .init(isDaylight: true, start: Self.wall("1970-03-29T02:00"), offsetFrom: 3600, offsetTo: 7200, rules: ["FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"]),
    ])
    let c = CalendarComponent(kind: .event, uid: "u", start: CalendarTime(Self.wall("2027-03-27T12:00"), .zoned("Custom Zone")),
                              rules: ["FREQ=DAILY;COUNT=2"], alarms: [Self.fifteenBefore])
    #expect(Self.ats(CalendarItem(components: [c], timeZones: [custom]), "2027-03-01T00:00:00Z", "2027-04-01T00:00:00Z")
      == ["2027-03-27T10:45:00Z", "2027-03-28T09:45:00Z"])
  }

  @Test func theNewestRevisionOfAComponentCounts() {
    var old = CalendarComponent(kind: .event, uid: "u", start: CalendarTime(Self.wall("2027-01-05T09:00"), .utc), alarms: [Self.fifteenBefore])
    var new = old
    new.start = CalendarTime(Self.wall("2027-01-06T09:00"), .utc)
    new.sequence = 1
    #expect(Self.ats(CalendarItem(components: [new, old]), "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z") == ["2027-01-06T08:45:00Z"])
    old.sequence = 2
    #expect(Self.ats(CalendarItem(components: [new, old]), "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z") == ["2027-01-05T08:45:00Z"])
  }

  @Test func occurrencesPerWindowAreBounded() {
    let c = CalendarComponent(kind: .event, uid: "u", start: CalendarTime(Self.wall("2000-01-01T09:00"), .floating),
                              rules: ["FREQ=DAILY"], alarms: [Self.fifteenBefore])
    let zones = CalendarZones(userZone: .utc)
    let plan = CalendarAlarmPlanner.plan(CalendarItem(components: [c]), after: Self.instant("2000-01-01T00:00:00Z"),
                                         until: Self.instant("2100-01-01T00:00:00Z"), zones: zones)
    #expect(plan.alarms.count <= CalendarItem.Limits.occurrencesPerWindow)
    #expect(plan.problems.contains { $0.contains("occurrences in the window") })
  }
}
