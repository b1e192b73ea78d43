import ChimeCore
import Foundation
import Testing

/// Whether Do Not Disturb is on at an instant, and from which source: manual, until-instants,
/// schedule windows across midnight, weekday sets and DST nights, as tables.
@Suite struct DoNotDisturbTests {
  typealias S = CalendarTestSupport

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var zone: String
    var window: String
    var days: String?
    /// UTC (or with an offset) -> the source expected then (nil: off).
    var at: [(String, DoNotDisturbSource?)]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "across midnight, every day", zone: "UTC", window: "22:00-07:00", days: nil, at: [
      ("2027-03-01T21:59:59Z", nil), ("2027-03-01T22:00:00Z", .schedule), ("2027-03-02T03:00:00Z", .schedule),
      ("2027-03-02T06:59:59Z", .schedule), ("2027-03-02T07:00:00Z", nil), ("2027-03-02T12:00:00Z", nil),
    ]),
    Case(name: "within a day", zone: "UTC", window: "12:30-13:15", days: nil, at: [
      ("2027-03-01T12:29:59Z", nil), ("2027-03-01T12:30:00Z", .schedule), ("2027-03-01T13:14:59Z", .schedule),
      ("2027-03-01T13:15:00Z", nil), ("2027-03-01T23:00:00Z", nil),
    ]),
    // 2027-03-01 is a Monday. A window belongs to the day it starts on.
    Case(name: "weekdays: mon-fri nights run to Saturday morning", zone: "UTC", window: "22:00-07:00", days: "mon-fri", at: [
      ("2027-03-01T06:00:00Z", nil),          // Monday morning: Sunday night is not in the set
      ("2027-03-01T23:00:00Z", .schedule),    // Monday night
      ("2027-03-05T23:00:00Z", .schedule),    // Friday night
      ("2027-03-06T06:00:00Z", .schedule),    // Saturday morning, Friday's window
      ("2027-03-06T23:00:00Z", nil),          // Saturday night
      ("2027-03-07T23:00:00Z", nil),          // Sunday night
      ("2027-03-08T06:59:00Z", nil),          // Monday morning
    ]),
    Case(name: "weekdays: a weekend list", zone: "UTC", window: "09:00-12:00", days: "sat,sun", at: [
      ("2027-03-05T10:00:00Z", nil), ("2027-03-06T10:00:00Z", .schedule), ("2027-03-07T10:00:00Z", .schedule),
      ("2027-03-08T10:00:00Z", nil),
    ]),
    Case(name: "wall time follows the zone", zone: "Asia/Kathmandu", window: "22:00-07:00", days: nil, at: [
      ("2027-03-01T16:14:00Z", nil), ("2027-03-01T16:15:00Z", .schedule), ("2027-03-02T01:14:59Z", .schedule),
      ("2027-03-02T01:15:00Z", nil),
    ]),
    // Europe/Berlin springs forward at 02:00 -> 03:00 on 2027-03-28 (01:00Z).
    Case(name: "Berlin spring night: an end in the gap ends at the gap's end", zone: "Europe/Berlin", window: "22:00-02:30", days: nil, at: [
      ("2027-03-27T20:59:59Z", nil), ("2027-03-27T21:00:00Z", .schedule), ("2027-03-28T00:59:59Z", .schedule),
      ("2027-03-28T01:00:00Z", nil),
    ]),
    Case(name: "Berlin spring night: a start in the gap starts at the gap's end", zone: "Europe/Berlin", window: "02:30-06:00", days: nil, at: [
      ("2027-03-28T00:59:59Z", nil), ("2027-03-28T01:00:00Z", .schedule), ("2027-03-28T03:59:59Z", .schedule),
      ("2027-03-28T04:00:00Z", nil),
      // The next day is an ordinary one: 02:30 +02:00.
      ("2027-03-29T00:29:59Z", nil), ("2027-03-29T00:30:00Z", .schedule),
    ]),
    // Europe/Berlin falls back at 03:00 -> 02:00 on 2027-10-31 (01:00Z): 02:00-03:00 occurs twice.
    Case(name: "Berlin autumn night: a start in the overlap starts at its first occurrence", zone: "Europe/Berlin", window: "02:30-06:00", days: nil, at: [
      ("2027-10-31T00:29:59Z", nil), ("2027-10-31T00:30:00Z", .schedule), ("2027-10-31T01:45:00Z", .schedule),
      ("2027-10-31T04:59:59Z", .schedule), ("2027-10-31T05:00:00Z", nil),
    ]),
    Case(name: "Berlin autumn night: an end in the overlap ends at its first occurrence", zone: "Europe/Berlin", window: "22:00-02:30", days: nil, at: [
      ("2027-10-30T19:59:59Z", nil), ("2027-10-30T20:00:00Z", .schedule), ("2027-10-31T00:29:59Z", .schedule),
      ("2027-10-31T00:30:00Z", nil), ("2027-10-31T01:30:00Z", nil),
    ]),
    // America/New_York springs forward at 02:00 on 2027-03-14 (07:00Z): the night is an hour shorter.
    Case(name: "New York spring night is an hour shorter", zone: "America/New_York", window: "22:00-07:00", days: nil, at: [
      ("2027-03-14T02:59:59Z", nil), ("2027-03-14T03:00:00Z", .schedule), ("2027-03-14T10:59:59Z", .schedule),
      ("2027-03-14T11:00:00Z", nil),
    ]),
    // America/New_York falls back at 02:00 on 2027-11-07 (06:00Z): 01:00-02:00 occurs twice.
    Case(name: "New York autumn night: a window in the overlap runs once, at the first occurrence", zone: "America/New_York",
         window: "01:30-01:45", days: nil, at: [
      ("2027-11-07T05:29:59Z", nil), ("2027-11-07T05:30:00Z", .schedule), ("2027-11-07T05:44:59Z", .schedule),
      ("2027-11-07T05:45:00Z", nil), ("2027-11-07T06:35:00Z", nil),
    ]),
    // Australia/Lord_Howe moves by half an hour: 02:00 -> 02:30 on 2027-10-03 (15:30Z on the 2nd)
    // and 02:00 -> 01:30 on 2027-04-04 (15:00Z on the 3rd).
    Case(name: "Lord Howe spring: a window wholly in the gap has no time", zone: "Australia/Lord_Howe", window: "02:10-02:20", days: nil, at: [
      ("2027-10-02T15:29:59Z", nil), ("2027-10-02T15:30:00Z", nil), ("2027-10-02T15:40:00Z", nil),
      ("2027-10-03T15:15:00Z", .schedule),    // the next night: 02:15 +11:00
    ]),
    Case(name: "Lord Howe spring: a start in the half-hour gap", zone: "Australia/Lord_Howe", window: "02:10-06:00", days: nil, at: [
      ("2027-10-02T15:29:59Z", nil), ("2027-10-02T15:30:00Z", .schedule), ("2027-10-02T18:59:59Z", .schedule),
      ("2027-10-02T19:00:00Z", nil),
    ]),
    Case(name: "Lord Howe autumn: a start in the half-hour overlap", zone: "Australia/Lord_Howe", window: "01:45-03:00", days: nil, at: [
      ("2027-04-03T14:44:59Z", nil), ("2027-04-03T14:45:00Z", .schedule), ("2027-04-03T15:20:00Z", .schedule),
      ("2027-04-03T16:29:59Z", .schedule), ("2027-04-03T16:30:00Z", nil),
    ]),
  ]

  @Test(arguments: cases) func scheduleWindows(_ c: Case) throws {
    let setting = DoNotDisturb(schedule: try DoNotDisturbSchedule.parse(c.window, days: c.days))
    let zone = try #require(Zone.named(c.zone))
    for (at, expected) in c.at {
      #expect(setting.isActive(at: S.instant(at), zone: zone) == expected, "at \(at)")
    }
  }

  @Test func aScheduleWindowSaysWhenItEndsAndWhenTheNextStarts() throws {
    let setting = DoNotDisturb(schedule: try DoNotDisturbSchedule.parse("22:00-07:00", days: "mon-fri"))
    let utc = try #require(Zone.named("UTC"))
    let on = setting.status(at: S.instant("2027-03-05T23:00:00Z"), zone: utc)
    #expect(on == DoNotDisturbStatus(active: true, source: .schedule, until: S.instant("2027-03-06T07:00:00Z"), nextStart: nil))
    // Saturday noon: the next window is Monday night.
    let off = setting.status(at: S.instant("2027-03-06T12:00:00Z"), zone: utc)
    #expect(off == DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: S.instant("2027-03-08T22:00:00Z")))
    // On Berlin's spring night the next start in the gap is the gap's end.
    let berlin = DoNotDisturb(schedule: try DoNotDisturbSchedule.parse("02:30-06:00"))
    let next = berlin.status(at: S.instant("2027-03-27T12:00:00Z"), zone: try #require(Zone.named("Europe/Berlin")))
    #expect(next.nextStart == S.instant("2027-03-28T01:00:00Z"))
  }

  @Test func manualOnUntilAnInstantEndsThen() throws {
    let utc = try #require(Zone.named("UTC"))
    let until = S.instant("2027-03-01T10:00:00Z")
    let setting = DoNotDisturb(manual: .init(until: until))
    #expect(setting.status(at: S.instant("2027-03-01T09:59:59.999Z"), zone: utc)
            == DoNotDisturbStatus(active: true, source: .manual, until: until, nextStart: nil))
    #expect(setting.isActive(at: until, zone: utc) == nil)
    #expect(setting.expired(at: until) == .off)
    #expect(setting.expired(at: S.instant("2027-03-01T09:00:00Z")) == setting)
  }

  @Test func manualOnWithoutAnEndStaysOnAndWinsOverTheSchedule() throws {
    let utc = try #require(Zone.named("UTC"))
    let schedule = try DoNotDisturbSchedule.parse("22:00-07:00")
    let setting = DoNotDisturb(manual: .init(), schedule: schedule)
    for at in ["2027-03-01T12:00:00Z", "2027-03-01T23:00:00Z", "2099-01-01T00:00:00Z"] {
      #expect(setting.status(at: S.instant(at), zone: utc) == DoNotDisturbStatus(active: true, source: .manual, until: nil, nextStart: nil))
    }
    // Once a manual window ends, the schedule applies again.
    let timed = DoNotDisturb(manual: .init(until: S.instant("2027-03-01T23:00:00Z")), schedule: schedule)
    #expect(timed.isActive(at: S.instant("2027-03-01T22:30:00Z"), zone: utc) == .manual)
    #expect(timed.isActive(at: S.instant("2027-03-01T23:00:00Z"), zone: utc) == .schedule)
    #expect(timed.isActive(at: S.instant("2027-03-02T08:00:00Z"), zone: utc) == nil)
    #expect(DoNotDisturb.off.status(at: S.instant("2027-03-01T23:00:00Z"), zone: utc) == .inactive)
  }

  @Test(arguments: [
    ("mon-fri", DoNotDisturbDays([.monday, .tuesday, .wednesday, .thursday, .friday]), "mon-fri"),
    ("sat,sun", DoNotDisturbDays([.saturday, .sunday]), "sat+sun"),
    ("Mon,Wed-Fri", DoNotDisturbDays([.monday, .wednesday, .thursday, .friday]), "mon+wed-fri"),
    ("fri-mon", DoNotDisturbDays([.friday, .saturday, .sunday, .monday]), "mon+fri-sun"),
    ("tuesday", DoNotDisturbDays.tuesday, "tue"),
    ("all", DoNotDisturbDays.everyDay, "every day"),
  ]) func weekdaySets(_ c: (String, DoNotDisturbDays, String)) throws {
    let days = try DoNotDisturbDays.parse(c.0)
    #expect(days == c.1)
    #expect(days.text == c.2)
  }

  @Test(arguments: [
    ("22:00", nil, "INVALID_DND_SCHEDULE"),
    ("22:00-24:00", nil, "INVALID_DND_SCHEDULE"),
    ("22:60-07:00", nil, "INVALID_DND_SCHEDULE"),
    ("10pm-7am", nil, "INVALID_DND_SCHEDULE"),
    ("22:00-22:00", nil, "INVALID_DND_SCHEDULE"),
    ("2200-0700", nil, "INVALID_DND_SCHEDULE"),
    ("22:00-07:00", "mon-fry", "INVALID_DND_DAYS"),
    ("22:00-07:00", "", "INVALID_DND_DAYS"),
    ("22:00-07:00", "mo", "INVALID_DND_DAYS"),
    ("22:00-07:00", "mon-tue-wed", "INVALID_DND_DAYS"),
  ] as [(String, String?, String)]) func invalidSchedulesAreRefusedWithAReason(_ c: (String, String?, String)) {
    #expect {
      _ = try DoNotDisturbSchedule.parse(c.0, days: c.1)
    } throws: { error in
      (error as? ChimeError)?.reason == c.2 && (error as? ChimeError)?.code == .invalidArgument
    }
  }

  @Test func validateRefusesValuesFromTheWire() {
    #expect(throws: ChimeError.self) { try DoNotDisturbSchedule(startMinute: 1440, endMinute: 0).validate() }
    #expect(throws: ChimeError.self) { try DoNotDisturbSchedule(startMinute: 0, endMinute: 60, days: []).validate() }
    #expect(throws: ChimeError.self) { try DoNotDisturbSchedule(startMinute: 0, endMinute: 60, days: .init(rawValue: 0x80)).validate() }
    #expect(throws: Never.self) { try DoNotDisturbSchedule(startMinute: 1320, endMinute: 420, days: .everyDay).validate() }
  }
}
