import ChimeCore
import Foundation
import Testing

/// Clock changes, both directions, under each policy, with the exact instants and notes: the
/// calendar rule at DST transitions (`DSTGapPolicy`, `DSTOverlapPolicy`) case by case.
@Suite struct CalendarDSTTests {
  typealias S = CalendarTestSupport

  /// One trigger from one instant, and the fires expected.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var zone: String
    var components: CalendarComponents
    var gap: DSTGapPolicy = .nextValid
    var overlap: DSTOverlapPolicy = .first
    var after: String
    /// UTC, in order; as many are asked for.
    var fires: [String]
    /// Local wall times with offsets, when the case is about them.
    var local: [String]? = nil
    /// The notes, by index into `fires`; the others must have none.
    var notes: [Int: String] = [:]
    var testDescription: String { name }

    init(_ name: String, _ zone: String, gap: DSTGapPolicy = .nextValid, overlap: DSTOverlapPolicy = .first,
         after: String, fires: [String], local: [String]? = nil, notes: [Int: String] = [:],
         _ build: (inout CalendarComponents) -> Void) {
      self.name = name
      self.zone = zone
      components = S.components(build)
      components.timeZone = zone
      self.gap = gap
      self.overlap = overlap
      self.after = after
      self.fires = fires
      self.local = local
      self.notes = notes
    }

    func run(gap: DSTGapPolicy? = nil, overlap: DSTOverlapPolicy? = nil) -> [FireDate] {
      let trigger = CalendarTrigger(components: components, repeats: true, dstGap: gap ?? self.gap, dstOverlap: overlap ?? self.overlap)
      return CalendarEngine.nextFires(after: S.instant(after), count: fires.count, trigger: trigger, zone: .utc)
    }
  }

  /// Checks a case's fires and their notes.
  static func check(_ c: Case, _ fires: [FireDate], label: String = "") {
    #expect(fires.map(\.utcISO8601) == c.fires, "\(c.name)\(label)")
    if let local = c.local { #expect(fires.map(\.localISO8601) == local, "\(c.name)\(label)") }
    for (i, fire) in fires.enumerated() {
      #expect(fire.dstNote == c.notes[i], "\(c.name)\(label): note of fire \(i)")
    }
  }

  // MARK: Patterns that fix the hour: the wall clock, one fire per intended occurrence

  static let hourFixed: [Case] = [
    Case("Berlin 02:30 in the gap fires at its end", "Europe/Berlin", after: "2027-03-27T12:00:00Z",
         fires: ["2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"],
         local: ["2027-03-28T03:00:00+02:00", "2027-03-29T02:30:00+02:00", "2027-03-30T02:30:00+02:00"],
         notes: [0: "02:30 does not exist on 2027-03-28 (DST gap); fires at 03:00 +02:00"]) { $0.hour = 2; $0.minute = 30 },
    Case("Berlin 02:30 in the gap, skip", "Europe/Berlin", gap: .skip, after: "2027-03-27T12:00:00Z",
         fires: ["2027-03-29T00:30:00Z", "2027-03-30T00:30:00Z"]) { $0.hour = 2; $0.minute = 30 },
    Case("New York 02:30 in the gap", "America/New_York", after: "2027-03-13T12:00:00Z",
         fires: ["2027-03-14T07:00:00Z", "2027-03-15T06:30:00Z"],
         notes: [0: "02:30 does not exist on 2027-03-14 (DST gap); fires at 03:00 -04:00"]) { $0.hour = 2; $0.minute = 30 },
    Case("New York 02:30 in the gap, skip", "America/New_York", gap: .skip, after: "2027-03-13T12:00:00Z",
         fires: ["2027-03-15T06:30:00Z"]) { $0.hour = 2; $0.minute = 30 },
    // Lord Howe moves 30 minutes: 02:00 -> 02:30.
    Case("Lord Howe half-hour gap", "Australia/Lord_Howe", after: "2026-10-03T00:00:00Z",
         fires: ["2026-10-03T15:30:00Z", "2026-10-04T15:15:00Z"], local: ["2026-10-04T02:30:00+11:00", "2026-10-05T02:15:00+11:00"],
         notes: [0: "02:15 does not exist on 2026-10-04 (DST gap); fires at 02:30 +11:00"]) { $0.hour = 2; $0.minute = 15 },
    Case("Lord Howe half-hour gap, skip", "Australia/Lord_Howe", gap: .skip, after: "2026-10-03T00:00:00Z",
         fires: ["2026-10-04T15:15:00Z"]) { $0.hour = 2; $0.minute = 15 },
    // Chatham: +12:45 -> +13:45 at 02:45 local.
    Case("Chatham gap", "Pacific/Chatham", after: "2026-09-26T00:00:00Z",
         fires: ["2026-09-26T14:00:00Z"], local: ["2026-09-27T03:45:00+13:45"],
         notes: [0: "03:00 does not exist on 2026-09-27 (DST gap); fires at 03:45 +13:45"]) { $0.hour = 3; $0.minute = 0 },
    // Brazil changed clocks at midnight: Sunday 00:00 did not exist on DST Sundays.
    Case("Sao Paulo midnight gap", "America/Sao_Paulo", after: "2018-10-30T00:00:00Z",
         fires: ["2018-11-04T03:00:00Z", "2018-11-11T02:00:00Z"],
         notes: [0: "00:00 does not exist on 2018-11-04 (DST gap); fires at 01:00 -02:00"]) { $0.weekday = 1 },
    // Every minute of 02:xx lies in the gap: one fire at its end, then 02:00 the next day.
    Case("skipped wall times of one gap fire once", "Europe/Berlin", after: "2027-03-28T00:00:00Z",
         fires: ["2027-03-28T01:00:00Z", "2027-03-29T00:00:00Z", "2027-03-29T00:01:00Z"],
         notes: [0: "02:00 does not exist on 2027-03-28 (DST gap); fires at 03:00 +02:00"]) { $0.hour = 2; $0.second = 0 },
    // Berlin falls back 03:00 -> 02:00 on 2026-10-25.
    Case("Berlin 02:30 twice fires at the first", "Europe/Berlin", after: "2026-10-24T12:00:00Z",
         fires: ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"],
         notes: [0: "02:30 occurs twice on 2026-10-25 (DST overlap); fires once, at the first (+02:00)"]) { $0.hour = 2; $0.minute = 30 },
    Case("Berlin 02:30 twice, started between them", "Europe/Berlin", after: "2026-10-25T01:00:00Z",
         fires: ["2026-10-26T01:30:00Z"]) { $0.hour = 2; $0.minute = 30 },
    Case("Berlin 02:30 twice, both", "Europe/Berlin", overlap: .both, after: "2026-10-24T12:00:00Z",
         fires: ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-26T01:30:00Z"],
         local: ["2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"],
         notes: [0: "02:30 occurs twice on 2026-10-25 (DST overlap); fires at both, this is the first (+02:00)",
                 1: "02:30 occurs twice on 2026-10-25 (DST overlap); fires at both, this is the second (+01:00)"]) { $0.hour = 2; $0.minute = 30 },
    Case("Berlin 02:30 twice, both, started between them", "Europe/Berlin", overlap: .both, after: "2026-10-25T01:00:00Z",
         fires: ["2026-10-25T01:30:00Z"],
         notes: [0: "02:30 occurs twice on 2026-10-25 (DST overlap); fires at both, this is the second (+01:00)"]) { $0.hour = 2; $0.minute = 30 },
    Case("New York 01:30 twice", "America/New_York", after: "2026-10-31T12:00:00Z",
         fires: ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"],
         notes: [0: "01:30 occurs twice on 2026-11-01 (DST overlap); fires once, at the first (-04:00)"]) { $0.hour = 1; $0.minute = 30 },
    Case("New York 01:30 twice, both", "America/New_York", overlap: .both, after: "2026-10-31T12:00:00Z",
         fires: ["2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z", "2026-11-02T06:30:00Z"],
         notes: [0: "01:30 occurs twice on 2026-11-01 (DST overlap); fires at both, this is the first (-04:00)",
                 1: "01:30 occurs twice on 2026-11-01 (DST overlap); fires at both, this is the second (-05:00)"]) { $0.hour = 1; $0.minute = 30 },
    // Lord Howe moves back 30 minutes: 02:00 -> 01:30.
    Case("Lord Howe half-hour overlap", "Australia/Lord_Howe", after: "2026-04-04T00:00:00Z",
         fires: ["2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z"],
         notes: [0: "01:45 occurs twice on 2026-04-05 (DST overlap); fires once, at the first (+11:00)"]) { $0.hour = 1; $0.minute = 45 },
    Case("Lord Howe half-hour overlap, both", "Australia/Lord_Howe", overlap: .both, after: "2026-04-04T00:00:00Z",
         fires: ["2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z", "2026-04-05T15:15:00Z"],
         local: ["2026-04-05T01:45:00+11:00", "2026-04-05T01:45:00+10:30", "2026-04-06T01:45:00+10:30"],
         notes: [0: "01:45 occurs twice on 2026-04-05 (DST overlap); fires at both, this is the first (+11:00)",
                 1: "01:45 occurs twice on 2026-04-05 (DST overlap); fires at both, this is the second (+10:30)"]) { $0.hour = 1; $0.minute = 45 },
    // Chatham: +13:45 -> +12:45 at 03:45 local.
    Case("Chatham overlap, both", "Pacific/Chatham", overlap: .both, after: "2026-04-04T00:00:00Z",
         fires: ["2026-04-04T13:15:00Z", "2026-04-04T14:15:00Z"],
         notes: [0: "03:00 occurs twice on 2026-04-05 (DST overlap); fires at both, this is the first (+13:45)",
                 1: "03:00 occurs twice on 2026-04-05 (DST overlap); fires at both, this is the second (+12:45)"]) { $0.hour = 3; $0.minute = 0 },
  ]

  @Test("patterns that fix the hour follow the wall clock", arguments: hourFixed)
  func hourFixedFollowsTheWallClock(_ c: Case) {
    Self.check(c, c.run())
  }

  // MARK: A search that starts just before the clock jumps

  /// A search that starts one second (or less) before the jump still fires the occurrence in
  /// the gap: the walk must not begin at the wall time after the jump.
  static let justBefore: [Case] = ["2021-03-28T00:59:00Z", "2021-03-28T00:59:59Z", "2021-03-28T00:59:59.999Z"].map { after in
    Case("Berlin 02:30 from \(after)", "Europe/Berlin", after: after,
         fires: ["2021-03-28T01:00:00Z", "2021-03-29T00:30:00Z"],
         notes: [0: "02:30 does not exist on 2021-03-28 (DST gap); fires at 03:00 +02:00"]) { $0.hour = 2; $0.minute = 30 }
  } + ["2035-09-29T13:59:00Z", "2035-09-29T13:59:59Z", "2035-09-29T13:59:59.999Z"].map { after in
    Case("Chatham 03:25:01 from \(after)", "Pacific/Chatham", after: after,
         fires: ["2035-09-29T14:00:00Z", "2035-09-30T13:40:01Z"],
         notes: [0: "03:25:01 does not exist on 2035-09-30 (DST gap); fires at 03:45 +13:45"]) { $0.hour = 3; $0.minute = 25; $0.second = 1 }
  }

  @Test("a search from just before the jump keeps the gap's occurrence", arguments: justBefore)
  func searchFromJustBeforeTheJump(_ c: Case) {
    Self.check(c, c.run())
  }

  // MARK: Patterns that leave the hour free: real time, whatever the policies

  static let hourFree: [Case] = [
    // 02:30 does not exist: 01:30 EST and 03:30 EDT are one real hour apart.
    Case("New York hourly :30 across the gap", "America/New_York", after: "2012-03-11T05:00:00Z",
         fires: ["2012-03-11T05:30:00Z", "2012-03-11T06:30:00Z", "2012-03-11T07:30:00Z", "2012-03-11T08:30:00Z"],
         local: ["2012-03-11T00:30:00-05:00", "2012-03-11T01:30:00-05:00", "2012-03-11T03:30:00-04:00", "2012-03-11T04:30:00-04:00"],
         notes: [2: "02:30 does not exist on 2012-03-11 (DST gap); no fire: the hour is free, so the trigger follows real time"]) { $0.minute = 30 },
    // 01:08 happens in BST and again in GMT: no two-hour hole.
    Case("London hourly :08 across the overlap", "Europe/London", after: "1995-10-21T23:30:00Z",
         fires: ["1995-10-22T00:08:00Z", "1995-10-22T01:08:00Z", "1995-10-22T02:08:00Z"],
         local: ["1995-10-22T01:08:00+01:00", "1995-10-22T01:08:00+00:00", "1995-10-22T02:08:00+00:00"],
         notes: [0: "01:08 occurs twice on 1995-10-22 (DST overlap); the hour is free, so it fires at both: this is the first (+01:00)",
                 1: "01:08 occurs twice on 1995-10-22 (DST overlap); the hour is free, so it fires at both: this is the second (+00:00)"]) { $0.minute = 8 },
    Case("Berlin hourly :30 across the overlap", "Europe/Berlin", after: "2026-10-24T22:00:00Z",
         fires: ["2026-10-24T22:30:00Z", "2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", "2026-10-25T02:30:00Z"],
         notes: [2: "02:30 occurs twice on 2026-10-25 (DST overlap); the hour is free, so it fires at both: this is the first (+02:00)",
                 3: "02:30 occurs twice on 2026-10-25 (DST overlap); the hour is free, so it fires at both: this is the second (+01:00)"]) { $0.minute = 30 },
    Case("Berlin hourly :30 across the gap", "Europe/Berlin", after: "2027-03-27T23:00:00Z",
         fires: ["2027-03-27T23:30:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:30:00Z", "2027-03-28T02:30:00Z"],
         notes: [2: "02:30 does not exist on 2027-03-28 (DST gap); no fire: the hour is free, so the trigger follows real time"]) { $0.minute = 30 },
    // Every minute: 01:59 CET, then 03:00 CEST one minute later.
    Case("Berlin every minute across the gap", "Europe/Berlin", after: "2027-03-28T00:58:30Z",
         fires: ["2027-03-28T00:59:00Z", "2027-03-28T01:00:00Z", "2027-03-28T01:01:00Z"],
         notes: [1: "02:00 to 02:59 do not exist on 2027-03-28 (DST gap); no fire: the hour is free, so the trigger follows real time"]) { $0.second = 0 },
    // Every minute: 02:59 CEST, then 02:00 CET one minute later, and on through the hour again.
    Case("Berlin every minute across the overlap", "Europe/Berlin", after: "2026-10-25T00:58:30Z",
         fires: ["2026-10-25T00:59:00Z", "2026-10-25T01:00:00Z", "2026-10-25T01:01:00Z"],
         local: ["2026-10-25T02:59:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:01:00+01:00"],
         notes: [0: "02:59 occurs twice on 2026-10-25 (DST overlap); the hour is free, so it fires at both: this is the first (+02:00)",
                 1: "02:00 occurs twice on 2026-10-25 (DST overlap); the hour is free, so it fires at both: this is the second (+01:00)",
                 2: "02:01 occurs twice on 2026-10-25 (DST overlap); the hour is free, so it fires at both: this is the second (+01:00)"]) { $0.second = 0 },
    // Lord Howe's half hour moves the :15 grid: 90 minutes between fires at both changes.
    Case("Lord Howe hourly :15 across the half-hour gap", "Australia/Lord_Howe", after: "2026-10-03T14:00:00Z",
         fires: ["2026-10-03T14:45:00Z", "2026-10-03T16:15:00Z"], local: ["2026-10-04T01:15:00+10:30", "2026-10-04T03:15:00+11:00"],
         notes: [1: "02:15 does not exist on 2026-10-04 (DST gap); no fire: the hour is free, so the trigger follows real time"]) { $0.minute = 15 },
    Case("Lord Howe hourly :45 across the half-hour overlap", "Australia/Lord_Howe", after: "2026-04-04T14:00:00Z",
         fires: ["2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z", "2026-04-04T16:15:00Z"],
         local: ["2026-04-05T01:45:00+11:00", "2026-04-05T01:45:00+10:30", "2026-04-05T02:45:00+10:30"],
         notes: [0: "01:45 occurs twice on 2026-04-05 (DST overlap); the hour is free, so it fires at both: this is the first (+11:00)",
                 1: "01:45 occurs twice on 2026-04-05 (DST overlap); the hour is free, so it fires at both: this is the second (+10:30)"]) { $0.minute = 45 },
  ]

  @Test("patterns that leave the hour free follow real time, whatever the policies", arguments: hourFree)
  func hourFreeFollowsRealTime(_ c: Case) {
    for gap in [DSTGapPolicy.nextValid, .skip] {
      for overlap in [DSTOverlapPolicy.first, .both] {
        Self.check(c, c.run(gap: gap, overlap: overlap), label: " (\(gap), \(overlap))")
      }
    }
  }

  // MARK: A day that does not exist has no occurrences (Pacific/Apia skipped 2011-12-30)

  static let missingDay: [Case] = [
    Case("Apia daily 09:00", "Pacific/Apia", after: "2011-12-28T12:00:00Z",
         fires: ["2011-12-28T19:00:00Z", "2011-12-29T19:00:00Z", "2011-12-30T19:00:00Z", "2011-12-31T19:00:00Z"],
         local: ["2011-12-28T09:00:00-10:00", "2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"],
         notes: [2: "2011-12-30 does not exist (the clock skipped it): no fire at 09:00 that day"]) { $0.hour = 9 },
    // Not 41 minutes after the 29th's fire, at the jump.
    Case("Apia daily 23:19", "Pacific/Apia", after: "2011-12-29T00:00:00Z",
         fires: ["2011-12-29T09:19:00Z", "2011-12-30T09:19:00Z", "2011-12-31T09:19:00Z"],
         local: ["2011-12-28T23:19:00-10:00", "2011-12-29T23:19:00-10:00", "2011-12-31T23:19:00+14:00"],
         notes: [2: "2011-12-30 does not exist (the clock skipped it): no fire at 23:19 that day"]) { $0.hour = 23; $0.minute = 19 },
    Case("Apia every minute of 09:xx", "Pacific/Apia", after: "2011-12-29T19:58:30Z",
         fires: ["2011-12-29T19:59:00Z", "2011-12-30T19:00:00Z"], local: ["2011-12-29T09:59:00-10:00", "2011-12-31T09:00:00+14:00"],
         notes: [1: "2011-12-30 does not exist (the clock skipped it): no fire from 09:00 to 09:59 that day"]) { $0.hour = 9; $0.second = 0 },
    Case("Apia hourly :30", "Pacific/Apia", after: "2011-12-30T09:00:00Z",
         fires: ["2011-12-30T09:30:00Z", "2011-12-30T10:30:00Z"], local: ["2011-12-29T23:30:00-10:00", "2011-12-31T00:30:00+14:00"],
         notes: [1: "2011-12-30 does not exist (the clock skipped it): no fire from 00:30 to 23:30 that day"]) { $0.minute = 30 },
    // Midnight on the day after the skip is the instant of the jump, and exists.
    Case("Apia 31 December at midnight", "Pacific/Apia", after: "2011-12-01T00:00:00Z",
         fires: ["2011-12-30T10:00:00Z"], local: ["2011-12-31T00:00:00+14:00"]) { $0.month = 12; $0.day = 31 },
  ]

  @Test("a day that does not exist has no occurrences, under either gap policy", arguments: missingDay)
  func missingDayHasNoOccurrences(_ c: Case) {
    for gap in [DSTGapPolicy.nextValid, .skip] {
      Self.check(c, c.run(gap: gap), label: " (\(gap))")
    }
  }

  @Test func theSkippedDateItselfNeverMatches() throws {
    for gap in [DSTGapPolicy.nextValid, .skip] {
      let t = S.trigger(zone: "Pacific/Apia", repeats: false, gap: gap) { $0.year = 2011; $0.month = 12; $0.day = 30; $0.hour = 12 }
      #expect(S.fires(t, after: "2011-01-01T00:00:00Z", count: 2) == [])
      let error = #expect(throws: ChimeError.self) {
        _ = try CalendarEngine.firstFire(after: S.instant("2011-01-01T00:00:00Z"), trigger: t, zone: .utc, field: "request.trigger.calendar")
      }
      #expect(error?.reason == "NOTIFICATION_INVALID_NO_DATE")
    }
  }

  @Test func fireCarriesItsZoneAndOffset() throws {
    let t = S.trigger(zone: "Europe/Berlin") { $0.hour = 2; $0.minute = 30 }
    let fire = try #require(S.fires(t, after: "2027-03-27T12:00:00Z", count: 1).first)
    #expect(fire.utcOffsetSeconds == 7200)
    #expect(fire.zoneIdentifier == "Europe/Berlin")
  }
}
