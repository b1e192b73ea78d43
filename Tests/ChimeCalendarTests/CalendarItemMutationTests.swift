import ChimeCalendar
import ChimeCore
import Testing

/// Damaged items through libical and the planner, seeded so every run is the same: bytes
/// flipped, lines dropped or repeated, the item cut short. Each must be read or refused with a
/// `CalendarReadError`, never trap; a plan's alarms are sorted and inside the window. (A
/// libFuzzer target is the longer version of this; see the report of issue 41's groundwork.)
@Suite struct CalendarItemMutationTests {
  typealias S = CalendarTestSupport

  /// A small deterministic generator (SplitMix64).
  struct Seeded {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
  }

  static let seed = """
    BEGIN:VTIMEZONE
    TZID:Custom
    BEGIN:STANDARD
    DTSTART:19701025T030000
    TZOFFSETFROM:+0200
    TZOFFSETTO:+0100
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
    END:STANDARD
    BEGIN:DAYLIGHT
    DTSTART:19700329T020000
    TZOFFSETFROM:+0100
    TZOFFSETTO:+0200
    RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
    END:DAYLIGHT
    END:VTIMEZONE
    BEGIN:VEVENT
    UID:m
    DTSTART;TZID=Custom:20270104T023000
    DURATION:PT1H
    RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=40
    RDATE;TZID=Custom:20270110T090000
    EXDATE;TZID=Custom:20270106T023000
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER;RELATED=END:-PT15M
    REPEAT:3
    DURATION:PT5M
    END:VALARM
    BEGIN:VALARM
    ACTION:AUDIO
    TRIGGER;VALUE=DATE-TIME:20270104T000000Z
    ATTACH:file:///tmp/a%20b.oga
    END:VALARM
    END:VEVENT
    BEGIN:VEVENT
    UID:m
    RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Custom:20270111T023000
    DTSTART;TZID=Custom:20270112T100000
    DTEND;TZID=Custom:20270112T110000
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER:-P1DT2H
    END:VALARM
    END:VEVENT
    BEGIN:VTODO
    UID:t
    DUE;VALUE=DATE:20270120
    RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231
    BEGIN:VALARM
    ACTION:DISPLAY
    TRIGGER;RELATED=END:-P2D
    END:VALARM
    END:VTODO
    """

  @Test func damagedItemsAreReadOrRefusedNeverTrap() throws {
    let original = S.item(Self.seed)
    let lines = original.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    let zones = CalendarZones(userZone: try #require(Zone.named("America/New_York")))
    // The undamaged item plans alarms in the window, so the damaged ones test something.
    let (whole, _) = try CalendarItemReader.read(original)
    #expect(CalendarAlarmPlanner.plan(whole, after: Instant(unixMillis: 1_790_000_000_000), until: Instant(unixMillis: 1_830_000_000_000),
                                      zones: zones).alarms.count > 40)
    var random = Seeded(state: 41)
    var read = 0
    for _ in 0..<200 {
      var bytes: [UInt8]
      switch random.below(4) {
      case 0:
        bytes = original
        for _ in 0...random.below(8) { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
      case 1:
        var kept = lines
        for _ in 0...random.below(6) where !kept.isEmpty { kept.remove(at: random.below(kept.count)) }
        bytes = Array(kept.joined(separator: [0x0A]))
      case 2:
        var more = lines
        for _ in 0...random.below(6) { more.insert(lines[random.below(lines.count)], at: random.below(more.count)) }
        bytes = Array(more.joined(separator: [0x0A]))
      default:
        bytes = Array(original.prefix(random.below(original.count)))
      }
      guard let (item, _) = try? CalendarItemReader.read(bytes) else { continue }
      read += 1
      let after = Instant(unixMillis: 1_790_000_000_000)
      let until = Instant(unixMillis: 1_830_000_000_000)
      let plan = CalendarAlarmPlanner.plan(item, after: after, until: until, zones: zones)
      #expect(plan.alarms.allSatisfy { $0.at >= after && $0.at < until })
      #expect(zip(plan.alarms, plan.alarms.dropFirst()).allSatisfy { $0.at <= $1.at })
    }
    // Most damage leaves something libical reads.
    #expect(read > 50)
  }
}
