import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

struct Next: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "next",
    abstract: "Preview when a trigger would fire (no daemon needed).",
    discussion: """
      Prints the next instants in UTC and in the trigger's zone, with a note where DST moves \
      or skips a wall time. The trigger flags are `chime add`'s: --in, --at, --calendar, \
      --rrule, with --repeats, --until and --count. Calendar components: year, month, day, \
      hour, minute, second, weekday (sun…sat, sunday…saturday, or 1 = Sunday … 7 = Saturday), \
      ordinal (nth weekday; -1 = last), week-of-month, week-of-year, year-for-week-of-year. \
      Each takes one value, except weekday: a range (weekday=mon-fri) or days joined with + \
      (weekday=mon+wed+fri), as `chime dnd schedule --days` takes them. Unset components are \
      free; smaller ones than the smallest given start at 0 (hour=9 fires at 09:00:00).

      --limit says how many instants to print (default 5, or every fire of a --count up to \
      1000); a trigger without --repeats fires once, so it prints one instant whatever \
      --limit says.

      At clock changes, a pattern that fixes the hour (hour given, or a daily, weekly, monthly \
      or yearly pattern at 00:00) follows the wall clock as --dst-gap and --dst-overlap say. A \
      pattern that leaves the hour free (minute=30 every hour, second=0 every minute) follows \
      real time: a wall time the clock skips does not fire, one it repeats fires each time, \
      and the two options do not apply. A day the zone skipped has no occurrences.

      Examples:
        chime next --calendar "weekday=mon,hour=9,minute=30" --tz Europe/Berlin \\
          --repeats --limit 5
        chime next --calendar "month=2,day=29,hour=8" --repeats --count 3 --json
        chime next --in 90s --repeats --limit 4
        chime next --rrule "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" \\
          --start 2099-12-01T17:00 --tz Europe/Berlin --limit 3

      A --rrule (RFC 5545: FREQ DAILY to YEARLY, INTERVAL, BYDAY with ordinals, BYMONTHDAY, \
      BYMONTH, BYYEARDAY, BYWEEKNO, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, WKST, COUNT or UNTIL) \
      starts at --start, a wall time in --tz; --exclude removes occurrences (they still count \
      towards COUNT). A wall time in a DST gap fires with the offset before the gap (02:30 on \
      the spring-forward night fires at 03:30), one in an overlap at its first occurrence.
      """
  )

  @OptionGroup(title: "Trigger") var when: TriggerOptions
  @Option(parsing: .unconditional, help: "Start strictly after this instant (ISO 8601; without an offset, local; default now).") var after: String?
  @Option(help: "How many instants to print (1–1000; default 5, or all of a --count up to 1000).") var limit: Int?
  @Flag(help: "Print JSON: an array of {utc, local, zone, utc_offset_seconds, dst_note}.") var json = false
  @Option(parsing: .unconditional, help: ArgumentHelp("Cut table cells with … so lines fit N columns (default: the terminal's width on a terminal; 0: no limit).", valueName: "N"))
  var width: Int?

  func validate() throws {
    if let width, width < 0 { throw ValidationError("--width takes a number of columns, or 0 for no limit (got \(width))") }
    if let limit, !(1...1000).contains(limit) { throw ValidationError("--limit takes 1 to 1000 (got \(limit))") }
  }

  func run() throws {
    var start = Date()
    if let after {
      let parsed = try AtOption.parse(after, option: "--after")
      start = parsed.date
      if let zone = parsed.assumedZone, !json { printError("chime: --after \(after) has no offset: read in the local zone \(zone)") }
    }
    guard when.given else { throw ValidationError("give --in, --at, --calendar or --rrule") }
    guard let trigger = try when.trigger(now: start) else { throw ValidationError("give --in, --at, --calendar or --rrule") }
    let shown = limit ?? min(when.count ?? 5, 1000)
    let dates: [FireDate]
    do {
      dates = try TriggerPlanner.preview(trigger, after: Instant(start), count: shown, zone: SystemTimeZone.current())
    } catch {
      report(error, json: json, status: 1)
      throw ExitCode(1)
    }
    if let limit, limit > 1, !trigger.repeats {
      printError("chime: one instant, not \(limit): without --repeats the trigger fires once (add --repeats to list \(limit))")
    }
    if json {
      JSONOutput.print(dates.map { d -> [String: Any] in
        var o: [String: Any] = ["utc": d.utcISO8601, "local": d.localISO8601, "zone": d.zoneIdentifier,
                                "utc_offset_seconds": d.utcOffsetSeconds, "unix_ms": d.instant.unixMillis]
        if let note = d.dstNote { o["dst_note"] = note }
        return o
      })
      return
    }
    var table = Table(headers: ["UTC", "LOCAL", "ZONE", "NOTE"], keep: [0, 1])
    for d in dates { table.add([d.utcISO8601, d.localISO8601, d.zoneIdentifier, d.dstNote ?? ""]) }
    print(table.render(width: OutputWidth.columns(requested: width)), terminator: "")
  }
}
