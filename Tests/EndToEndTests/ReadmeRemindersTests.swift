import ChimeTestSupport
import Foundation
import Testing

/// The README's "Reminders" section runs exactly as written, in order, against a daemon in a
/// temporary directory, and prints what its text says it prints.
@Suite(.testTimeLimit) struct ReadmeRemindersTests {
  @Test func remindersRunAsWritten() throws {
    let commands = try ReadmeCommands.commands(after: "## Reminders", before: "\n## ")
    #expect(commands.count >= 12)
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    var checked: Set<String> = []
    for arguments in commands {
      let run = try ChimeCLI.run(arguments, socket: daemon.socketPath, timeout: 30)
      let line = arguments.joined(separator: " ")
      #expect(run.status == 0, "chime \(line): \(run.stderr)")
      let rows = run.stdout.split(separator: "\n").dropFirst().map(String.init)
      if line.hasPrefix("next --calendar weekday=mon-fri") {
        // Monday 7 to Friday 11 December 2026, 09:15 in Berlin: no weekend day.
        #expect(rows.map { String($0.prefix(10)) } == (7...11).map { "2026-12-\(String(format: "%02d", $0))" })
        #expect(rows.allSatisfy { $0.contains("T09:15:00+01:00") })
        checked.insert("weekdays")
      } else if line.hasPrefix("next --rrule FREQ=WEEKLY") {
        // The six Tuesdays and Thursdays up to UNTIL, though ten were asked for.
        #expect(rows.map { String($0.prefix(10)) } == ["2026-12-01", "2026-12-03", "2026-12-08", "2026-12-10", "2026-12-15", "2026-12-17"])
        checked.insert("until")
      } else if line.hasPrefix("next --rrule FREQ=DAILY") {
        #expect(rows.count == 3)
        #expect(rows[1].hasPrefix("2027-03-28T01:30:00Z  2027-03-28T03:30:00+02:00"))
        #expect(rows[1].contains("DST gap"))
        checked.insert("gap")
      } else if line == "pending" {
        for id in ["standup", "gym", "pills", "water", "payday", "wake", "tea"] {
          #expect(run.stdout.contains(id), "pending lists \(id): \(run.stdout)")
        }
        #expect(run.stdout.contains("weekday=mon-fri"))
        #expect(run.stdout.contains("weekday=mon+wed+fri"))
        #expect(run.stdout.contains("rings 2m, auto-snooze 3"))
        #expect(run.stdout.contains("snoozed (1)"))
        checked.insert("pending")
      } else if line == "dnd" {
        #expect(run.stdout.contains("on"), "\(run.stdout)")
        #expect(run.stdout.contains("manual"), "\(run.stdout)")
        checked.insert("dnd")
      } else if line.hasPrefix("snooze tea") {
        #expect(run.stdout.hasPrefix("snoozed tea until"), "\(run.stdout)")
        checked.insert("snooze")
      }
    }
    #expect(checked == ["weekdays", "until", "gap", "pending", "dnd", "snooze"])
  }
}
