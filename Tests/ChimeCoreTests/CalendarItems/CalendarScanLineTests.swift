import ChimeCore
import Testing

/// The lines chime-calendar prints for chimed read back as written, whatever the texts hold;
/// calendar names are checked to make valid app ids.
@Suite struct CalendarScanLineTests {
  @Test func linesReadBackAsWritten() {
    let alarms = [
      PlannedAlarm(uid: "a\tb\\c", recurrenceID: .instant(Instant(unixMillis: 1_800_000_000_000)), summary: "Line\none", alarmDescription: nil,
                   at: Instant(unixMillis: 1_799_999_400_000), action: .display, repeatIndex: 2, componentKind: .todo,
                   occurrenceStart: Instant(unixMillis: 1_800_000_000_000), location: "", occurrenceEnd: nil),
      PlannedAlarm(uid: "u", recurrenceID: nil, summary: nil, alarmDescription: "+plus", at: Instant(unixMillis: 5_000), action: .audio(soundFile: "/s/x.oga")),
      PlannedAlarm(uid: "u", recurrenceID: nil, summary: "s", at: Instant(unixMillis: 5_000), action: .audio(soundFile: nil)),
    ]
    let lines: [CalendarScanLine] = alarms.map { .alarm(file: "item one.ics", $0) } + [.acknowledged(file: "a.ics", alarms[0])]
      + [.item(file: "x.ics", alarms: 3), .failed(file: "y.ics", message: "bad\r\nline"), .gone(file: "z.ics")]
    for line in lines {
      #expect(!line.encoded.contains("\n"))
      #expect(CalendarScanLine(decoding: Substring(line.encoded)) == line, "\(line.encoded)")
    }
    #expect(CalendarScanLine(decoding: "Q\tx") == nil)
    #expect(CalendarScanLine(decoding: "A\tx\tu\tz9\t0\tDISPLAY\t\t0\tVEVENT\t\t\t\t\t") == nil, "an occurrence is i<ms>, d<s> or empty")
    #expect(CalendarScanLine(decoding: "F\tx\tmany") == nil)
  }

  @Test func writeBackRequestsAndOutcomesReadBackAsWritten() {
    let requests = [
      AlarmWriteBack.Request(file: "a b\t.ics", uid: "u\\1", recurrenceID: .date(LocalDateTime(year: 2027, month: 1, day: 15, hour: 0, minute: 0, second: 0)!),
                             at: Instant(unixMillis: 1_800_000_000_000), repeatIndex: 2, kind: .dismiss),
      AlarmWriteBack.Request(file: "/cal.ics", uid: "u", recurrenceID: nil, at: Instant(unixMillis: 5_000), repeatIndex: 0,
                             kind: .snooze(until: Instant(unixMillis: 305_000))),
    ]
    for request in requests { #expect(AlarmWriteBack.Request(decoding: request.encoded) == request, "\(request.encoded)") }
    #expect(AlarmWriteBack.Request(decoding: "D\tf\tu\t\t5000") == nil)
    #expect(AlarmWriteBack.Request(decoding: "S\tf\tu\t\t5000\t0") == nil, "a snooze says until when")
    let outcomes: [AlarmWriteBack.Outcome] = [.written, .unchanged("already acknowledged"), .failed("a\tb\nc")]
    for (number, outcome) in outcomes.enumerated() {
      #expect(AlarmWriteBack.Outcome.decoding(Substring(outcome.encoded(number: number)))! == (number, outcome))
    }
    #expect(AlarmWriteBack.Outcome.decoding("W\tx") == nil)
  }

  @Test func calendarNamesMakeValidAppIDs() throws {
    try CalendarSource.validate(name: "Work_2-b")
    #expect(CalendarSource.appID(for: "work") == "io.github.chime.calendar.work")
    for bad in ["", "a.b", "a b", "é", String(repeating: "x", count: 65)] {
      #expect(throws: ChimeError.self) { try CalendarSource.validate(name: bad) }
    }
  }
}
