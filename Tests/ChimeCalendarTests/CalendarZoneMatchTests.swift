import ChimeCalendar
import ChimeCore
import Testing

private typealias S = CalendarTestSupport

/// A VTIMEZONE whose TZID names no zone is matched to an IANA zone (issue 41): by its
/// X-LIC-LOCATION, else by its rules agreeing with a tzdata zone's around the planning window;
/// otherwise its own rules stand.
@Suite struct CalendarZoneMatchTests {
  let candidates = CalendarCollection.zoneCandidates()

  func source(_ body: String, tzid: String, around: String, candidates: [String]? = nil) throws -> CalendarZones.Source {
    let (item, _) = try CalendarItemReader.read(S.item(body))
    let zones = CalendarZones(userZone: .utc, ruleCandidates: candidates ?? self.candidates)
    return zones.zone(for: tzid, in: item, around: S.instant(around).unixMillis / 1000).source
  }

  /// Central European summer time listed for 2026 to 2028 only, as some exporters write it.
  static let truncated = """
    BEGIN:VTIMEZONE
    TZID:Mitteleuropa
    BEGIN:DAYLIGHT
    DTSTART:20260329T020000
    TZOFFSETFROM:+0100
    TZOFFSETTO:+0200
    RDATE:20270328T020000,20280326T020000
    END:DAYLIGHT
    BEGIN:STANDARD
    DTSTART:20261025T030000
    TZOFFSETFROM:+0200
    TZOFFSETTO:+0100
    RDATE:20271031T030000,20281029T030000
    END:STANDARD
    END:VTIMEZONE
    """

  @Test func tzdataHasItsZoneTable() {
    #expect(candidates.count > 300)
    #expect(candidates.contains("Europe/Berlin") && candidates.contains("America/New_York"))
    #expect(!candidates.contains { $0.hasPrefix("#") || $0.contains("\t") })
  }

  @Test func aDefinitionListingAFewYearsIsMatchedAndLaterYearsFollowTzdata() throws {
    let body = Self.truncated + """

      BEGIN:VEVENT
      UID:weekly
      DTSTART;TZID=Mitteleuropa:20260701T090000
      RRULE:FREQ=YEARLY
      BEGIN:VALARM
      ACTION:DISPLAY
      TRIGGER:-PT10M
      END:VALARM
      END:VEVENT
      """
    let matched = try source(body, tzid: "Mitteleuropa", around: "2026-06-01T00:00:00Z")
    guard case .matched(let name) = matched else { Issue.record("not matched: \(matched)"); return }
    #expect(try #require(Zone.named(name)).secondsFromUTC(at: S.instant("2030-07-01T00:00:00Z")) == 7200)
    // Planned from 2026: July 2030 is summer time (tzdata), not the definition's last offset.
    let plan = try CalendarAlarmPlanner.plan(CalendarItemReader.read(S.item(body)).item, after: S.instant("2026-06-01T00:00:00Z"),
                                             until: S.instant("2031-01-01T00:00:00Z"), zones: CalendarZones(userZone: .utc, ruleCandidates: candidates))
    #expect(plan.alarms.map { String($0.at.description.prefix(19)) }.last == "2030-07-01T06:50:00")
    // Without tzdata's table, the definition's own rules: standard time after 2028.
    let own = try CalendarAlarmPlanner.plan(CalendarItemReader.read(S.item(body)).item, after: S.instant("2026-06-01T00:00:00Z"),
                                            until: S.instant("2031-01-01T00:00:00Z"), zones: CalendarZones(userZone: .utc))
    #expect(own.alarms.map { String($0.at.description.prefix(19)) }.last == "2030-07-01T07:50:00")
  }

  @Test func theCityATzidNamesIsPreferredAmongZonesThatAgree() throws {
    let eastern = { (tzid: String) in """
      BEGIN:VTIMEZONE
      TZID:\(tzid)
      BEGIN:STANDARD
      DTSTART:16011104T020000
      RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11
      TZOFFSETFROM:-0400
      TZOFFSETTO:-0500
      END:STANDARD
      BEGIN:DAYLIGHT
      DTSTART:16010311T020000
      RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3
      TZOFFSETFROM:-0500
      TZOFFSETTO:-0400
      END:DAYLIGHT
      END:VTIMEZONE
      """ }
    let order = ["America/Chicago", "America/New_York", "America/Toronto"]
    #expect(try source(eastern("Eastern (custom)"), tzid: "Eastern (custom)", around: "2027-01-10T00:00:00Z", candidates: order)
      == .matched("America/New_York"), "Chicago's rules differ; New York is the first that agrees")
    #expect(try source(eastern("(UTC-05:00) Toronto office"), tzid: "(UTC-05:00) Toronto office", around: "2027-01-10T00:00:00Z",
                       candidates: order) == .matched("America/Toronto"))
  }

  @Test func xLicLocationNamesTheZoneAndRulesThatAgreeWithNoneStandAlone() throws {
    let located = """
      BEGIN:VTIMEZONE
      TZID:Büro
      X-LIC-LOCATION:Europe/Vienna
      BEGIN:STANDARD
      DTSTART:19700101T000000
      TZOFFSETFROM:+0100
      TZOFFSETTO:+0100
      END:STANDARD
      END:VTIMEZONE
      """
    #expect(try source(located, tzid: "Büro", around: "2027-01-10T00:00:00Z", candidates: []) == .matched("Europe/Vienna"))
    let odd = """
      BEGIN:VTIMEZONE
      TZID:Odd
      BEGIN:STANDARD
      DTSTART:19700101T000000
      TZOFFSETFROM:+0123
      TZOFFSETTO:+0123
      END:STANDARD
      END:VTIMEZONE
      """
    #expect(try source(odd, tzid: "Odd", around: "2027-01-10T00:00:00Z") == .definition)
    let india = """
      BEGIN:VTIMEZONE
      TZID:India Standard Time
      BEGIN:STANDARD
      DTSTART:16010101T000000
      TZOFFSETFROM:+0530
      TZOFFSETTO:+0530
      END:STANDARD
      END:VTIMEZONE
      """
    #expect(try source(india, tzid: "India Standard Time", around: "2027-01-10T00:00:00Z") == .matched("Asia/Kolkata"))
  }
}
