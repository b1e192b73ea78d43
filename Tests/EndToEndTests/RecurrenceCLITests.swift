import ChimeTestSupport
import Foundation
import Testing

/// `--rrule` on the built `chime`: previews with no daemon, and a rule added to a real daemon
/// shown back by `pending` exactly as given.
@Suite(.testTimeLimit) struct RecurrenceCLITests {
  func utc(_ run: ChimeCLI.Run) throws -> [String] {
    try #require(run.objects, "not a JSON array: \(run.stdout) \(run.stderr)").compactMap { $0["utc"] as? String }
  }

  @Test func nextPreviewsARuleWithTheGapNoted() throws {
    let run = try ChimeCLI.run(["next", "--rrule", "FREQ=DAILY;COUNT=3", "--start", "2027-03-27T02:30", "--tz", "Europe/Berlin",
                                "--after", "2027-01-01T00:00:00Z", "--json"], timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try utc(run) == ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"])
    let notes = try #require(run.objects).map { $0["dst_note"] as? String }
    #expect(notes[1]?.contains("02:30 does not exist on 2027-03-28") == true, "\(notes)")
  }

  @Test func badRulesAreRefusedNamingThePart() throws {
    let bad = try ChimeCLI.run(["next", "--rrule", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "--start", "2027-01-01T09:00", "--json"], timeout: 30)
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("INVALID_RECURRENCE_RULE") && bad.stderr.contains("BYSETPOS=0"), "\(bad.stderr)")
    let hourly = try ChimeCLI.run(["next", "--rrule", "FREQ=HOURLY", "--start", "2027-01-01T09:00"], timeout: 30)
    #expect(hourly.stderr.contains("interval trigger"), "\(hourly.stderr)")
    let never = try ChimeCLI.run(["next", "--rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "--start", "2027-01-01T09:00", "--json"], timeout: 30)
    #expect(never.status == 1)
    #expect(never.stdout.contains("NOTIFICATION_INVALID_NO_DATE"), "\(never.stdout)")
    let noStart = try ChimeCLI.run(["next", "--rrule", "FREQ=DAILY"], timeout: 30)
    #expect(noStart.status == 64 && noStart.stderr.contains("--start"), "\(noStart.stderr)")
  }

  @Test func pendingShowsTheRuleAsGiven() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    let rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
    let add = try ChimeCLI.run(["add", "last", "--title", "Last working day", "--rrule", rule, "--start", "2036-12-01T17:00",
                                "--tz", "Europe/Berlin", "--exclude", "2036-12-31T17:00"], socket: daemon.socketPath)
    #expect(add.status == 0, "\(add.stderr)")
    let pending = try ChimeCLI.run(["pending", "--json"], socket: daemon.socketPath)
    let row = try #require(pending.objects?.first, "\(pending.stdout) \(pending.stderr)")
    let trigger = try #require(row["trigger"] as? [String: Any])
    #expect(trigger["type"] as? String == "recurrence")
    #expect(trigger["rrule"] as? String == rule)
    #expect(trigger["start"] as? String == "2036-12-01T17:00")
    #expect(trigger["tz"] as? String == "Europe/Berlin")
    #expect(trigger["exclude"] as? [String] == ["2036-12-31T17:00"])
    // 2036-12-31 is excluded: the first fire is the last working day of January 2037.
    #expect(row["next_fire"] as? String == "2037-01-30T16:00:00.000Z", "\(row)")
    let table = try ChimeCLI.run(["pending"], socket: daemon.socketPath)
    #expect(table.stdout.contains("rule \(rule) from 2036-12-01T17:00 Europe/Berlin except 2036-12-31T17:00"), "\(table.stdout)")
  }
}
