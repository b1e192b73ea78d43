import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Schedule a notification (the same identifier replaces the earlier one).",
    discussion: """
      Without --in or --at the notification is delivered at once.

      Examples:
        chime add tea --title "Tea" --body "Steeped" --in 10s
        chime add stretch --title "Stretch" --in 1h --repeats
        chime add standup --title "Standup" --at 2026-11-23T09:30:00+01:00
        chime add ping --title "Ping" --badge 3 --user-info '{"room": 4}' \\
          --level time-sensitive
        chime add standup --title "Standup" \\
          --calendar "weekday=mon,hour=9,minute=30" --tz Europe/Berlin --repeats
        chime add wake --title "Wake up" --at 2026-11-24T07:00 --ring 5m --auto-snooze 3
      """
  )

  @OptionGroup var options: ClientOptions

  @Argument(help: "Request identifier (1–256 bytes).")
  var identifier: String

  @Option(help: "Title.") var title = ""
  @Option(help: "Subtitle.") var subtitle = ""
  @Option(help: "Body text.") var body = ""
  @Option(parsing: .unconditional, help: "Badge number (0 clears the badge).") var badge: Int64?
  @Option(help: "default, none, or a sound file name.") var sound: String?
  @Flag(help: "Critical alert sound (with --sound NAME for a custom one).") var critical = false
  @Option(help: "Critical alert volume, 0–1.") var volume: Double?
  @Option(help: "Ring like an alarm: the sound repeats once delivered until answered, dismissed or removed, for at most this long (5s to 30m; the default sound unless --sound names one).")
  var ring: String?
  @Option(help: "With --ring: when the ring runs out unanswered, snooze it (by the category's first snooze duration, else 10 minutes) and ring again, up to N times (0-10).")
  var autoSnooze: UInt32?
  @Option(name: .customLong("user-info"), help: "User info: a JSON object.") var userInfo = ""
  @Option(help: "Category identifier.") var category = ""
  @Option(help: "Thread identifier.") var thread = ""
  @Option(name: .customLong("target-content-id"), help: "Target content identifier.") var targetContentID = ""
  @Option(help: "Interruption level: passive, active, time-sensitive, critical.", completion: .list(InterruptionLevel.allCases.map(JSONOutput.cliLevel))) var level: String?
  @Option(help: "Relevance score, 0–1.") var relevance: Double?
  @Option(name: .customLong("in"), parsing: .unconditional, help: "Fire after this long: 90s, 10m, 2h, 1h30m, 1d (a unit is required).")
  var after: String?
  @Option(parsing: .unconditional, help: "Fire at this instant: ISO 8601 with an offset (2026-11-23T09:30:00Z, ...+01:00), or without one (2026-11-23T09:30, 2026-11-23 09:30, 2026-11-23), read in the local zone.")
  var at: String?
  @Option(help: "Fire when the date matches these components, e.g. \"weekday=mon,hour=9,minute=30\" (see chime next --help).")
  var calendar: String?
  @Option(help: "IANA time zone for --calendar (default: floating, follows the daemon's zone).") var tz: String?
  @Option(help: "DST gap policy for --calendar when the hour is fixed: next (default) or skip.", completion: .list(["next", "skip"])) var dstGap: String?
  @Option(help: "DST overlap policy for --calendar when the hour is fixed: first (default) or both.", completion: .list(["first", "both"])) var dstOverlap: String?
  @Flag(help: "Repeat every --in interval (at least 60s), or every --calendar match.") var repeats = false
  @Option(parsing: .unconditional, help: "With --repeats: fire no later than this instant (ISO 8601, as --at); the request ends after its last fire.")
  var until: String?
  @Option(help: "With --repeats: fire at most this many times; the request ends after the last.") var count: Int?
  @Option(help: ArgumentHelp("Fire by an RFC 5545 recurrence rule, e.g. \"FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10\" (with --start; see chime next --help).", valueName: "rule"))
  var rrule: String?
  @Option(help: "The rule's start (DTSTART): a local wall time in --tz such as 2026-12-01T17:00.") var start: String?
  @Option(help: "A wall time of the rule's that does not fire (EXDATE); repeatable.") var exclude: [String] = []
  @Option(help: "Missed fires: deliver (default), skip, or a duration such as 10m (deliver only if late by less).", completion: .list(["deliver", "skip"]))
  var missed: String?
  @Option(name: .customLong("attach"), help: ArgumentHelp(AttachOption.help, valueName: "file[,options]"))
  var attachments: [String] = []

  /// What the CLI assumed reading --at, when it had no offset.
  var atNote: String? {
    guard let at, let zone = InstantText.parse(at, zone: SystemTimeZone.current())?.assumedZone else { return nil }
    return "--at \(at) has no offset: read in the local zone \(zone)"
  }

  func request() throws -> NotificationRequest {
    var content = NotificationContent(title: title, subtitle: subtitle, body: body)
    content.badge = badge
    content.userInfoJSON = userInfo
    content.categoryIdentifier = category
    content.threadIdentifier = thread
    content.targetContentIdentifier = targetContentID
    content.relevanceScore = relevance
    if let level {
      // The whole word, as --level's completion lists it (`time-sensitive`) or as Apple spells
      // it (`timeSensitive`), in any case.
      let word = level.trimmingWhitespace().lowercased()
      guard let parsed = InterruptionLevel.allCases.first(where: { JSONOutput.cliLevel($0) == word || $0.name.lowercased() == word }) else {
        throw ValidationError("--level must be passive, active, time-sensitive or critical (got \"\(level)\")")
      }
      content.interruptionLevel = parsed
    }
    switch (sound, critical) {
    case (nil, false): break
    case (nil, true), ("default"?, true): content.sound = Sound(kind: .defaultCritical, volume: volume)
    case ("default"?, false): content.sound = .default
    case ("none"?, true): throw ValidationError("--critical needs a sound: --sound default or a name, not none")
    case ("none"?, false): content.sound = Sound.none
    case (let name?, true): content.sound = Sound(kind: .criticalNamed, name: name, volume: volume)
    case (let name?, false): content.sound = .named(name)
    }
    if volume != nil && !critical { throw ValidationError("--volume needs --critical") }
    if let ring {
      guard let seconds = DurationText.parse(ring), seconds >= 0, seconds < Double(UInt32.max) else {
        throw ValidationError("--ring: \"\(ring)\" is not a duration (try 30s, 5m)")
      }
      content.ring = Ring(seconds: UInt32(seconds.rounded()), autoSnooze: autoSnooze ?? 0)
    } else if autoSnooze != nil {
      throw ValidationError("--auto-snooze needs --ring")
    }

    var trigger: Trigger?
    if calendar != nil && (after != nil || at != nil) { throw ValidationError("give --calendar, --in or --at, not several") }
    if let rrule {
      if calendar != nil || after != nil || at != nil { throw ValidationError("give --rrule, --calendar, --in or --at, not several") }
      trigger = try TriggerOptions.recurrence(rrule: rrule, start: start, tz: tz, exclude: exclude, repeats: repeats,
                                              dstGap: dstGap, dstOverlap: dstOverlap)
    } else if start != nil || !exclude.isEmpty {
      throw ValidationError("--start and --exclude go with --rrule")
    } else if calendar == nil {
      let which = after != nil ? "--in" : at != nil ? "--at" : "a trigger"
      if tz != nil { throw ValidationError("--tz goes with --calendar, not \(which) (--at takes an offset: 2026-11-24T09:30:00+01:00)") }
      if dstGap != nil || dstOverlap != nil { throw ValidationError("--dst-gap and --dst-overlap go with --calendar, not \(which)") }
    }
    switch (after, at) {
    case _ where rrule != nil:
      break
    case (_?, _?):
      throw ValidationError("give --in or --at, not both")
    case (let text?, nil):
      let bare = text.trimmingWhitespace()
      if !bare.isEmpty, bare.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), DurationText.parse(bare) != nil {
        throw ValidationError("--in \(text) needs a unit: \(text)s, \(text)m or \(text)h")
      }
      guard let seconds = DurationText.parse(text.hasPrefix("-") ? String(text.dropFirst()) : text) else {
        throw ValidationError("--in: \"\(text)\" is not a duration (try 90s, 10m, 2h, 1h30m)")
      }
      if text.hasPrefix("-") || seconds <= 0 {
        throw ValidationError("--in must be a positive duration (got \(text)); for a past instant there is nothing to schedule")
      }
      trigger = try TriggerOptions.trigger(calendar: nil, tz: nil, interval: text, repeats: repeats, dstGap: nil, dstOverlap: nil)
    case (nil, let text?):
      if repeats { throw ValidationError("--repeats goes with --in or --calendar, not --at (an instant happens once)") }
      let parsed = try AtOption.parse(text, option: "--at")
      let now = Date()
      guard parsed.date > now else {
        throw ValidationError("--at \(text) is in the past (it is now \(TimeText.local(Instant(now)))); give a future instant")
      }
      trigger = .calendar(CalendarTrigger(components: CalendarSpec.instant(parsed.date), repeats: false))
    case (nil, nil):
      trigger = try TriggerOptions.trigger(calendar: calendar, tz: tz, interval: nil, repeats: repeats, dstGap: dstGap, dstOverlap: dstOverlap)
      if trigger == nil && repeats { throw ValidationError("--repeats needs --in or --calendar") }
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

    var policy = MissedFirePolicy.deliver
    switch missed {
    case nil, "deliver"?: break
    case "skip"?: policy = MissedFirePolicy(action: .skip)
    case let text?:
      guard let seconds = DurationText.parse(text) else { throw ValidationError("--missed must be deliver, skip or a duration") }
      policy = MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: seconds)
    }
    content.attachments = try attachments.map { try AttachOption.parse($0) }
    return NotificationRequest(identifier: identifier, content: content, trigger: trigger, missedFire: policy)
  }

  func run() async throws {
    let request = try request()
    let atNote = atNote
    try await reporting(json: options.json) {
      let client = try options.connect()
      let result = try await client.add(request)
      if options.json {
        var object = JSONOutput.pending(result.pending)
        object["replaced"] = result.replaced
        if let delivered = result.delivered { object["delivered"] = JSONOutput.delivered(delivered) }
        JSONOutput.print(object)
      } else if result.delivered != nil {
        print("delivered \(identifier) now")
      } else {
        let now = Instant(Date())
        let verb = result.replaced ? "replaced" : "scheduled"
        print("\(verb) \(identifier): fires \(TimeText.local(result.pending.nextFire)) (\(DurationText.relative(result.pending.nextFire, from: now)))")
      }
      if !options.json {
        if let atNote { print("  \(atNote)") }
        for attachment in result.pending.request.content.attachments {
          guard let info = attachment.info else { continue }
          print("  attachment \(attachment.identifier): \(info.type), \(info.bytes) bytes, stored at \(info.storePath)")
        }
        if let sound = result.pending.sound, !sound.message.isEmpty {
          let why = sound.reason.isEmpty ? "" : "\(sound.reason): "
          print("  sound: plays \(sound.plays.rawValue) — \(why)\(sound.message)")
        }
      }
    }
  }
}

/// `--at` and `next --after`: an instant with or without an offset (read in the local zone).
enum AtOption {
  static func parse(_ text: String, option: String) throws -> InstantText.Parsed {
    guard let parsed = InstantText.parse(text, zone: SystemTimeZone.current()) else {
      throw ValidationError("""
        \(option): "\(text)" is not a date-time; write 2026-11-24T09:30:00Z, 2026-11-24T09:30:00+01:00, \
        or without an offset (read in the local zone) 2026-11-24T09:30, 2026-11-24 09:30 or 2026-11-24
        """)
    }
    return parsed
  }
}
