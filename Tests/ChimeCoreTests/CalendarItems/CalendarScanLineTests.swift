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
    let lines: [CalendarScanLine] = alarms.map { .alarm(file: "item one.ics", $0) }
      + [.item(file: "x.ics", alarms: 3), .failed(file: "y.ics", message: "bad\r\nline"), .gone(file: "z.ics")]
    for line in lines {
      #expect(!line.encoded.contains("\n"))
      #expect(CalendarScanLine(decoding: Substring(line.encoded)) == line, "\(line.encoded)")
    }
    #expect(CalendarScanLine(decoding: "Q\tx") == nil)
    #expect(CalendarScanLine(decoding: "F\tx\tmany") == nil)
  }

  @Test func calendarNamesMakeValidAppIDs() throws {
    try CalendarSource.validate(name: "Work_2-b")
    #expect(CalendarSource.appID(for: "work") == "io.github.chime.calendar.work")
    for bad in ["", "a.b", "a b", "é", String(repeating: "x", count: 65)] {
      #expect(throws: ChimeError.self) { try CalendarSource.validate(name: bad) }
    }
  }
}
