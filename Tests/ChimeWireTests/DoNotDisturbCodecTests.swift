import ChimeCore
import ChimeWire
import Testing

/// SetDoNotDisturb's request and the DoNotDisturbState reply through protobuf and back.
@Suite struct DoNotDisturbCodecTests {
  static let weeknights = DoNotDisturbSchedule(startMinute: 22 * 60, endMinute: 7 * 60, days: [.monday, .tuesday, .wednesday, .thursday, .friday])

  @Test(arguments: [
    DoNotDisturbChange(),
    DoNotDisturbChange(manual: .on(until: nil)),
    DoNotDisturbChange(manual: .on(until: Instant(unixMillis: 1_800_000_060_000))),
    DoNotDisturbChange(manual: .off),
    DoNotDisturbChange(schedule: .set(weeknights)),
    DoNotDisturbChange(schedule: .set(DoNotDisturbSchedule(startMinute: 60, endMinute: 120))),
    DoNotDisturbChange(manual: .off, schedule: .clear),
    DoNotDisturbChange(followDesktop: false),
    DoNotDisturbChange(followDesktop: true, summary: false),
    DoNotDisturbChange(summary: true),
  ]) func changesRoundTrip(_ change: DoNotDisturbChange) throws {
    #expect(try WireCodec.decodeSetDoNotDisturbRequest(WireCodec.encodeSetDoNotDisturbRequest(change)) == change)
  }

  @Test func statesRoundTrip() throws {
    let reports = [
      DoNotDisturbReport(setting: .off, status: .inactive, timeZone: "UTC"),
      DoNotDisturbReport(setting: DoNotDisturb(manual: .init(until: Instant(unixMillis: 5_000)), schedule: Self.weeknights),
                         status: DoNotDisturbStatus(active: true, source: .manual, until: Instant(unixMillis: 5_000), nextStart: nil),
                         timeZone: "Europe/Berlin"),
      DoNotDisturbReport(setting: DoNotDisturb(schedule: DoNotDisturbSchedule(startMinute: 0, endMinute: 1439)),
                         status: DoNotDisturbStatus(active: false, source: nil, until: nil, nextStart: Instant(unixMillis: 86_400_000)),
                         timeZone: "Australia/Lord_Howe"),
      DoNotDisturbReport(setting: DoNotDisturb(followDesktop: true, summary: false),
                         status: DoNotDisturbStatus(active: true, source: .desktop, until: nil, nextStart: nil, desktop: .dunstPaused),
                         timeZone: "UTC"),
      DoNotDisturbReport(setting: DoNotDisturb(manual: .init(), followDesktop: true),
                         status: DoNotDisturbStatus(active: true, source: .manual, until: nil, nextStart: nil, desktop: .kdeInhibited),
                         timeZone: "UTC"),
      DoNotDisturbReport(setting: DoNotDisturb(followDesktop: false), status: .inactive, timeZone: "UTC"),
    ]
    for report in reports {
      #expect(try WireCodec.decodeDoNotDisturbState(WireCodec.encodeDoNotDisturbState(report)) == report)
    }
  }

  /// Values out of range reach the service (which names the reason) rather than being
  /// silently repaired on the way.
  @Test func outOfRangeDaysAreKeptForTheServiceToRefuse() throws {
    let wide = DoNotDisturbChange(schedule: .set(DoNotDisturbSchedule(startMinute: 60, endMinute: 120, days: .init(rawValue: 0x80))))
    guard case .set(let decoded)? = try WireCodec.decodeSetDoNotDisturbRequest(WireCodec.encodeSetDoNotDisturbRequest(wide)).schedule else {
      Issue.record("no schedule")
      return
    }
    #expect(throws: ChimeError.self) { try decoded.validate() }
  }
}
