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
      or skips a wall time. Calendar components: year, month, day, hour, minute, second, \
      weekday (1 = Sunday … 7 = Saturday, or sun…sat, or sunday…saturday), ordinal (nth \
      weekday; -1 = last), week-of-month, week-of-year, year-for-week-of-year. Each takes one \
      value, except weekday: a range (weekday=mon-fri) or days joined with + (weekday=mon+wed+fri). Unset components are \
      free; smaller ones than the smallest given start at 0 (hour=9 fires at 09:00:00).

      A trigger without --repeats fires once, so it prints one instant whatever --count says.

      At clock changes, a pattern that fixes the hour (hour given, or a daily, weekly, monthly \
      or yearly pattern at 00:00) follows the wall clock as --dst-gap and --dst-overlap say. A \
      pattern that leaves the hour free (minute=30 every hour, second=0 every minute) follows \
      real time: a wall time the clock skips does not fire, one it repeats fires each time, \
      and the two options do not apply. A day the zone skipped has no occurrences.

      Examples:
        chime next --calendar "weekday=mon,hour=9,minute=30" --tz Europe/Berlin \\
          --repeats --count 5
        chime next --calendar "month=2,day=29,hour=8" --repeats --count 3 --json
        chime next --interval 90s --repeats --count 4
        chime next --rrule "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" \\
          --start 2026-12-01T17:00 --tz Europe/Berlin --count 3

      A --rrule (RFC 5545: FREQ DAILY to YEARLY, INTERVAL, BYDAY with ordinals, BYMONTHDAY, \
      BYMONTH, BYYEARDAY, BYWEEKNO, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, WKST, COUNT or UNTIL) \
      starts at --start, a wall time in --tz; --exclude removes occurrences (they still count \
      towards COUNT). A wall time in a DST gap fires with the offset before the gap (02:30 on \
      the spring-forward night fires at 03:30), one in an overlap at its first occurrence.
      """
  )

  @Option(help: "Calendar components, e.g. \"weekday=2,hour=9,minute=30\".") var calendar: String?
  @Option(help: "IANA time zone for --calendar (default: floating, the zone chime runs in).") var tz: String?
  @Option(help: "A time interval such as 90s, 10m, 2h.") var interval: String?
  @Option(help: ArgumentHelp("An RFC 5545 recurrence rule, e.g. \"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1\" (with --start).", valueName: "rule"))
  var rrule: String?
  @Option(help: "The rule's start (DTSTART): a local wall time in --tz such as 2026-12-01T17:00.") var start: String?
  @Option(help: "A wall time of the rule's that does not fire (EXDATE), e.g. 2026-12-31T17:00; repeatable.") var exclude: [String] = []
  @Flag(help: "Repeat (calendar: every match; interval: every interval). Without it, one instant.") var repeats = false
  @Option(parsing: .unconditional, help: "Start strictly after this instant (ISO 8601; without an offset, local; default now).") var after: String?
  @Option(help: "How many instants with --repeats (1–1000; default 5).") var count: Int?
  @Option(help: "A wall time the clock skips fires at the gap's end (next) or not at all (skip); only when the hour is fixed.", completion: .list(["next", "skip"])) var dstGap: String?
  @Option(help: "A wall time the clock repeats fires at the first occurrence (first) or at both; only when the hour is fixed.", completion: .list(["first", "both"])) var dstOverlap: String?
  @Flag(help: "Print JSON: an array of {utc, local, zone, utc_offset_seconds, dst_note}.") var json = false
  @Option(parsing: .unconditional, help: ArgumentHelp("Cut table cells with … so lines fit N columns (default: the terminal's width on a terminal; 0: no limit).", valueName: "N"))
  var width: Int?

  func validate() throws {
    if let width, width < 0 { throw ValidationError("--width takes a number of columns, or 0 for no limit (got \(width))") }
  }

  func run() throws {
    let trigger: Trigger
    if let rrule {
      if calendar != nil || interval != nil { throw ValidationError("give --rrule, --calendar or --interval, not several") }
      trigger = try TriggerOptions.recurrence(rrule: rrule, start: start, tz: tz, exclude: exclude, repeats: repeats,
                                              dstGap: dstGap, dstOverlap: dstOverlap)
    } else {
      if start != nil || !exclude.isEmpty { throw ValidationError("--start and --exclude go with --rrule") }
      trigger = try TriggerOptions.trigger(calendar: calendar, tz: tz, interval: interval, repeats: repeats,
                                           dstGap: dstGap, dstOverlap: dstOverlap) ?? { throw ValidationError("give --calendar, --interval or --rrule") }()
    }
    var start = Instant(Date())
    if let after {
      let parsed = try AtOption.parse(after, option: "--after")
      start = Instant(parsed.date)
      if let zone = parsed.assumedZone, !json { printError("chime: --after \(after) has no offset: read in the local zone \(zone)") }
    }
    let dates: [FireDate]
    do {
      dates = try TriggerPlanner.preview(trigger, after: start, count: count ?? 5, zone: SystemTimeZone.current())
    } catch {
      report(error, json: json, status: 1)
      throw ExitCode(1)
    }
    if let count, count > 1, !trigger.repeats {
      printError("chime: one instant, not \(count): without --repeats the trigger fires once (add --repeats to list \(count))")
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

/// Builds a trigger from the options `add` and `next` share.
enum TriggerOptions {
  /// `--rrule RULE --start WALL [--tz ZONE] [--exclude WALL ...]`: an RFC 5545 recurrence.
  static func recurrence(rrule: String, start: String?, tz: String?, exclude: [String], repeats: Bool,
                         dstGap: String?, dstOverlap: String?) throws -> Trigger {
    guard let start else { throw ValidationError("--rrule needs --start, the first wall time, e.g. --start 2026-12-01T17:00") }
    if repeats { throw ValidationError("--repeats goes with --in, --interval or --calendar: a --rrule repeats by itself (COUNT or UNTIL end it)") }
    if dstGap != nil || dstOverlap != nil {
      throw ValidationError("--dst-gap and --dst-overlap go with --calendar: a --rrule reads a wall time in a gap with the offset before it (RFC 5545)")
    }
    do {
      return .recurrence(try Recurrence(rule: rrule, start: start, timeZone: tz, exclusions: exclude, field: "rrule"))
    } catch {
      throw ValidationError("--rrule: \(error.reason): \(error.message)")
    }
  }

  static func trigger(calendar: String?, tz: String?, interval: String?, repeats: Bool,
                      dstGap: String?, dstOverlap: String?) throws -> Trigger? {
    switch (calendar, interval) {
    case (_?, _?):
      throw ValidationError("give --calendar or an interval, not both")
    case (let spec?, nil):
      let components: CalendarComponents
      do {
        components = try CalendarSpec.parse(spec, timeZone: tz)
      } catch {
        throw ValidationError("--calendar: \(error.reason): \(error.message)")
      }
      let gap: DSTGapPolicy
      switch dstGap ?? "next" { case "next": gap = .nextValid; case "skip": gap = .skip; default: throw ValidationError("--dst-gap must be next or skip") }
      let overlap: DSTOverlapPolicy
      switch dstOverlap ?? "first" { case "first": overlap = .first; case "both": overlap = .both; default: throw ValidationError("--dst-overlap must be first or both") }
      return .calendar(CalendarTrigger(components: components, repeats: repeats, dstGap: gap, dstOverlap: overlap))
    case (nil, let text?):
      if tz != nil { throw ValidationError("--tz goes with --calendar, not an interval") }
      if dstGap != nil || dstOverlap != nil { throw ValidationError("--dst-gap and --dst-overlap go with --calendar, not an interval") }
      guard let seconds = DurationText.parse(text) else { throw ValidationError("\"\(text)\" is not a duration (try 90s, 10m, 2h)") }
      return .timeInterval(TimeIntervalTrigger(seconds: seconds, repeats: repeats))
    case (nil, nil):
      if tz != nil { throw ValidationError("--tz goes with --calendar") }
      if dstGap != nil || dstOverlap != nil { throw ValidationError("--dst-gap and --dst-overlap go with --calendar") }
      return nil
    }
  }
}
