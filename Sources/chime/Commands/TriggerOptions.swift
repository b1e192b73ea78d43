import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// The trigger flags `chime add` and `chime next` share, one group so the two read a trigger
/// the same way and a hint that names one of these flags is right for both.
struct TriggerOptions: ParsableArguments {
  @Option(name: .customLong("in"), parsing: .unconditional,
          help: ArgumentHelp("Fire after this long: 90s, 10m, 2h, 1h30m, 1d (a unit is required).", valueName: "duration"))
  var interval: String?
  @Option(parsing: .unconditional, help: ArgumentHelp("Fire at this instant: ISO 8601 with an offset (2099-11-23T09:30:00Z, ...+01:00), or without one (2099-11-23T09:30, 2099-11-23 09:30, 2099-11-23), read in the local zone.", valueName: "instant"))
  var at: String?
  @Option(help: "Fire when the date matches these components, e.g. \"weekday=mon+wed,hour=9,minute=30\" (see chime next --help).")
  var calendar: String?
  @Option(help: "IANA time zone for --calendar and --rrule (default: floating, the zone of the machine).") var tz: String?
  @Option(help: "DST gap policy for --calendar when the hour is fixed: next (default) or skip.", completion: .list(["next", "skip"])) var dstGap: String?
  @Option(help: "DST overlap policy for --calendar when the hour is fixed: first (default) or both.", completion: .list(["first", "both"])) var dstOverlap: String?
  @Flag(help: "Repeat every --in interval (at least 60s), or every --calendar match.") var repeats = false
  @Option(parsing: .unconditional, help: "With --repeats: fire no later than this instant (ISO 8601, as --at); the request ends after its last fire.")
  var until: String?
  @Option(help: "With --repeats: fire at most this many times; the request ends after the last.") var count: Int?
  @Option(help: ArgumentHelp("Fire by an RFC 5545 recurrence rule, e.g. \"FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\" (with --start; see chime next --help).", valueName: "rule"))
  var rrule: String?
  @Option(help: "The rule's start (DTSTART): a local wall time in --tz such as 2099-12-01T17:00.") var start: String?
  @Option(help: "A wall time of the rule's that does not fire (EXDATE), e.g. 2099-12-31T17:00; repeatable.") var exclude: [String] = []

  /// What the CLI assumed reading --at, when it had no offset.
  var atNote: String? {
    guard let at, let zone = InstantText.parse(at, zone: SystemTimeZone.current())?.assumedZone else { return nil }
    return "--at \(at) has no offset: read in the local zone \(zone)"
  }

  /// Whether any trigger flag was given.
  var given: Bool { interval != nil || at != nil || calendar != nil || rrule != nil }

  /// The trigger the flags describe, nil when none was given (`add` delivers at once); `now`
  /// is the instant `--at` must be after.
  func trigger(now: Date) throws -> Trigger? {
    var trigger: Trigger?
    if calendar != nil && (interval != nil || at != nil) { throw ValidationError("give --calendar, --in or --at, not several") }
    if let rrule {
      if calendar != nil || interval != nil || at != nil { throw ValidationError("give --rrule, --calendar, --in or --at, not several") }
      trigger = try Self.recurrence(rrule: rrule, start: start, tz: tz, exclude: exclude, repeats: repeats,
                                    dstGap: dstGap, dstOverlap: dstOverlap)
    } else if start != nil || !exclude.isEmpty {
      throw ValidationError("--start and --exclude go with --rrule")
    } else if calendar == nil {
      let which = interval != nil ? "--in" : at != nil ? "--at" : "a trigger"
      if tz != nil { throw ValidationError("--tz goes with --calendar or --rrule, not \(which) (--at takes an offset: 2099-11-24T09:30:00+01:00)") }
      if dstGap != nil || dstOverlap != nil { throw ValidationError("--dst-gap and --dst-overlap go with --calendar, not \(which)") }
    }
    switch (interval, at) {
    case _ where rrule != nil:
      break
    case (_?, _?):
      throw ValidationError("give --in or --at, not both")
    case (let text?, nil):
      let seconds = try DurationOption.parse(text, option: "--in", DurationInput.Bounds(noun: "interval"))
      trigger = .timeInterval(TimeIntervalTrigger(seconds: seconds, repeats: repeats))
    case (nil, let text?):
      if repeats { throw ValidationError("--repeats goes with --in or --calendar, not --at (an instant happens once)") }
      let parsed = try AtOption.parse(text, option: "--at")
      guard parsed.date > now else {
        throw ValidationError("--at \(text) is in the past (it is now \(TimeText.local(Instant(now)))); give a future instant")
      }
      trigger = .calendar(CalendarTrigger(components: CalendarSpec.instant(parsed.date), repeats: false))
    case (nil, nil):
      if let calendar {
        trigger = try Self.calendarTrigger(calendar, tz: tz, repeats: repeats, dstGap: dstGap, dstOverlap: dstOverlap)
      } else if repeats {
        throw ValidationError("--repeats needs --in or --calendar")
      }
    }

    if until != nil || count != nil {
      if rrule != nil { throw ValidationError("--until and --count do not go with --rrule: give COUNT or UNTIL in the rule") }
      guard repeats, let repeating = trigger else {
        throw ValidationError("--until and --count go with --repeats (with --in or --calendar)")
      }
      if let count, count < 1 { throw ValidationError("--count must be 1 or more (got \(count))") }
      var end = RepeatEnd(count: count)
      if let until {
        let parsed = try AtOption.parse(until, option: "--until")
        end.until = Instant(parsed.date)
      }
      switch repeating {
      case .timeInterval(var t):
        t.end = end
        trigger = .timeInterval(t)
      case .calendar(var c):
        c.end = end
        trigger = .calendar(c)
      case .recurrence:
        break
      }
    }
    return trigger
  }

  /// `--rrule RULE --start WALL [--tz ZONE] [--exclude WALL ...]`: an RFC 5545 recurrence.
  static func recurrence(rrule: String, start: String?, tz: String?, exclude: [String], repeats: Bool,
                         dstGap: String?, dstOverlap: String?) throws -> Trigger {
    guard let start else { throw ValidationError("--rrule needs --start, the first wall time, e.g. --start 2099-12-01T17:00") }
    if repeats { throw ValidationError("--repeats goes with --in or --calendar: a --rrule repeats by itself (COUNT or UNTIL end it)") }
    if dstGap != nil || dstOverlap != nil {
      throw ValidationError("--dst-gap and --dst-overlap go with --calendar: a --rrule reads a wall time in a gap with the offset before it (RFC 5545)")
    }
    do {
      return .recurrence(try Recurrence(rule: rrule, start: start, timeZone: tz, exclusions: exclude, field: "rrule"))
    } catch {
      throw ValidationError("--rrule: \(error.reason): \(error.message)")
    }
  }

  /// `--calendar SPEC [--tz ZONE] [--dst-gap ...] [--dst-overlap ...]`.
  static func calendarTrigger(_ spec: String, tz: String?, repeats: Bool, dstGap: String?, dstOverlap: String?) throws -> Trigger {
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
  }
}

/// `--at`, `--until` and `next --after`: an instant with or without an offset (read in the
/// local zone).
enum AtOption {
  static func parse(_ text: String, option: String) throws -> InstantText.Parsed {
    guard let parsed = InstantText.parse(text, zone: SystemTimeZone.current()) else {
      throw ValidationError("""
        \(option): "\(text)" is not a date-time; write 2099-11-24T09:30:00Z, 2099-11-24T09:30:00+01:00, \
        or without an offset (read in the local zone) 2099-11-24T09:30, 2099-11-24 09:30 or 2099-11-24
        """)
    }
    return parsed
  }
}
