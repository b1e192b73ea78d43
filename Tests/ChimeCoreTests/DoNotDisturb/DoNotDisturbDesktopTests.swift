import ChimeCore
import Foundation
import Testing

/// The desktop's own Do Not Disturb among the sources (precedence, the setting that turns it
/// off), when the setting changes by itself, and the summary's text.
@Suite struct DoNotDisturbDesktopTests {
  static let utc = Zone.utc
  static func at(_ iso: String) -> Instant { Instant(try! Date(iso, strategy: .iso8601)) }
  /// 22:00-07:00 every day.
  static let nights = DoNotDisturbSchedule(startMinute: 22 * 60, endMinute: 7 * 60)

  @Test func aPausedDesktopAloneIsOnWithTheDesktopSource() {
    let status = DoNotDisturb.off.status(at: Self.at("2027-03-01T12:00:00Z"), zone: Self.utc, desktop: .dunstPaused)
    #expect(status == DoNotDisturbStatus(active: true, source: .desktop, until: nil, nextStart: nil, desktop: .dunstPaused))
    let kde = DoNotDisturb.off.status(at: Self.at("2027-03-01T12:00:00Z"), zone: Self.utc, desktop: .kdeInhibited)
    #expect(kde.source == .desktop && kde.desktop == .kdeInhibited)
  }

  @Test func notFollowedTheDesktopCountsForNothing() {
    let setting = DoNotDisturb(followDesktop: false)
    let status = setting.status(at: Self.at("2027-03-01T12:00:00Z"), zone: Self.utc, desktop: .dunstPaused)
    #expect(status == .inactive)
    #expect(setting.isActive(at: Self.at("2027-03-01T12:00:00Z"), zone: Self.utc, desktop: .kdeInhibited) == nil)
  }

  /// Any source on makes it on; the one named is the first of manual, schedule, desktop, and
  /// the desktop's state is reported beside it.
  @Test func precedenceIsManualThenScheduleThenDesktop() {
    let noon = Self.at("2027-03-01T12:00:00Z"), night = Self.at("2027-03-01T23:00:00Z")
    let both = DoNotDisturb(manual: .init(until: Self.at("2027-03-02T08:00:00Z")), schedule: Self.nights)
    let manual = both.status(at: night, zone: Self.utc, desktop: .dunstPaused)
    #expect(manual.source == .manual && manual.until == Self.at("2027-03-02T08:00:00Z") && manual.desktop == .dunstPaused)
    let scheduled = DoNotDisturb(schedule: Self.nights).status(at: night, zone: Self.utc, desktop: .dunstPaused)
    #expect(scheduled.source == .schedule && scheduled.until == Self.at("2027-03-02T07:00:00Z") && scheduled.desktop == .dunstPaused)
    // Outside the window the desktop applies, and the next window is still said.
    let day = DoNotDisturb(schedule: Self.nights).status(at: noon, zone: Self.utc, desktop: .dunstPaused)
    #expect(day == DoNotDisturbStatus(active: true, source: .desktop, until: nil, nextStart: Self.at("2027-03-01T22:00:00Z"),
                                      desktop: .dunstPaused))
    // A manual until that has passed does not apply; the desktop does.
    let expired = DoNotDisturb(manual: .init(until: Self.at("2027-03-01T11:00:00Z")))
    #expect(expired.isActive(at: noon, zone: Self.utc, desktop: .kdeInhibited) == .desktop)
    #expect(expired.isActive(at: noon, zone: Self.utc) == nil)
  }

  @Test func bothPropertiesNameDunstFirst() {
    #expect(DesktopQuiet.from(dunstPaused: true, kdeInhibited: true) == .dunstPaused)
    #expect(DesktopQuiet.from(dunstPaused: false, kdeInhibited: true) == .kdeInhibited)
    #expect(DesktopQuiet.from(dunstPaused: false, kdeInhibited: false) == nil)
  }

  /// When to look again: the manual until, the window's end, the next start, whichever first.
  @Test func nextChangeIsTheNearestEndOrStart() {
    let noon = Self.at("2027-03-01T12:00:00Z")
    #expect(DoNotDisturb.off.nextChange(after: noon, zone: Self.utc) == nil)
    #expect(DoNotDisturb(manual: .init()).nextChange(after: noon, zone: Self.utc) == nil)
    #expect(DoNotDisturb(manual: .init(until: Self.at("2027-03-01T12:30:00Z"))).nextChange(after: noon, zone: Self.utc)
      == Self.at("2027-03-01T12:30:00Z"))
    #expect(DoNotDisturb(schedule: Self.nights).nextChange(after: noon, zone: Self.utc) == Self.at("2027-03-01T22:00:00Z"))
    #expect(DoNotDisturb(schedule: Self.nights).nextChange(after: Self.at("2027-03-01T23:00:00Z"), zone: Self.utc)
      == Self.at("2027-03-02T07:00:00Z"))
    // A passed until is not a change to come.
    #expect(DoNotDisturb(manual: .init(until: Self.at("2027-03-01T11:00:00Z"))).nextChange(after: noon, zone: Self.utc) == nil)
  }

  @Test func changeSetsFollowingAndSummaryAndLeavesTheRest() {
    let setting = DoNotDisturb(manual: .init(), schedule: Self.nights)
    let changed = DoNotDisturbChange(followDesktop: false, summary: false).applied(to: setting)
    #expect(changed == DoNotDisturb(manual: .init(), schedule: Self.nights, followDesktop: false, summary: false))
    #expect(DoNotDisturbChange(summary: true).applied(to: changed).summary && !DoNotDisturbChange(summary: true).applied(to: changed).followDesktop)
    #expect(DoNotDisturbChange().isEmpty && !DoNotDisturbChange(summary: false).isEmpty)
  }

  @Test(arguments: [
    ([("Mail", 2), ("Calendar", 1)], "3 notifications while Do Not Disturb was on: Mail (2), Calendar"),
    ([("Tea Timer", 1)], "1 notification while Do Not Disturb was on: Tea Timer"),
    // Most first, then by name; apps with nothing are left out.
    ([("b", 1), ("a", 1), ("c", 4), ("z", 0)], "6 notifications while Do Not Disturb was on: c (4), a, b"),
    ([("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1), ("f", 1), ("g", 2)],
     "8 notifications while Do Not Disturb was on: g (2), a, b, c, d, and 2 more apps"),
    ([("a", 3), ("b", 1), ("c", 1), ("d", 1), ("e", 1), ("f", 1)],
     "8 notifications while Do Not Disturb was on: a (3), b, c, d, e, and 1 more app"),
  ] as [([(String, Int)], String)])
  func summaryText(_ counts: [(String, Int)], _ expected: String) {
    let summary = DoNotDisturbSummary(counts.map { DoNotDisturbSummary.AppCount(name: $0.0, count: $0.1) })
    #expect(summary.text == expected)
    #expect(DoNotDisturbSummary.title == "Do Not Disturb is off")
  }

  @Test func anEmptySummaryIsEmpty() {
    #expect(DoNotDisturbSummary([]).isEmpty && DoNotDisturbSummary([.init(name: "x", count: 0)]).isEmpty)
    let shown = DoNotDisturbSummary([.init(name: "Mail", count: 2)]).notification(at: Instant(unixMillis: 5))
    #expect(shown.request.identifier == DoNotDisturbSummary.identifier && shown.request.content.body.hasPrefix("2 notifications"))
    #expect(!shown.quiet)
  }
}
