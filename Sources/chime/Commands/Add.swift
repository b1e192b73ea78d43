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
      Without --in, --at, --calendar or --rrule the notification is delivered at once.

      --attach MOVES each file into chimed's store: it leaves its directory (a file inside the \
      app's bundle, or with other hard links, is copied instead). To keep the original, attach \
      a copy.

      Examples:
        chime add tea --title "Tea" --body "Steeped" --in 10s
        chime add stretch --title "Stretch" --in 1h --repeats
        chime add standup --title "Standup" --at 2099-11-23T09:30:00+01:00
        chime add ping --title "Ping" --badge 3 --user-info '{"room": 4}' \\
          --level time-sensitive
        chime add standup --title "Standup" \\
          --calendar "weekday=mon,hour=9,minute=30" --tz Europe/Berlin --repeats
        chime add wake --title "Wake up" --at 2099-11-24T07:00 --ring 5m --auto-snooze 3
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
  @OptionGroup(title: "Trigger") var when: TriggerOptions
  @Option(help: "Missed fires: deliver (default), skip, or a duration such as 10m (deliver only if late by less).", completion: .list(["deliver", "skip"]))
  var missed: String?
  @Option(name: .customLong("attach"), help: ArgumentHelp(AttachOption.help, valueName: "file[,options]"))
  var attachments: [String] = []

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
      // The bounds (5 s to 30 min) are chimed's to judge (INVALID_RING); this reads the text.
      let seconds = try DurationOption.parse(ring, option: "--ring", DurationInput.Bounds(noun: "ring", longest: Double(UInt32.max)))
      content.ring = Ring(seconds: UInt32(seconds.rounded()), autoSnooze: autoSnooze ?? 0)
    } else if autoSnooze != nil {
      throw ValidationError("--auto-snooze needs --ring")
    }

    let trigger = try when.trigger(now: Date())

    var policy = MissedFirePolicy.deliver
    switch missed {
    case nil, "deliver"?: break
    case "skip"?: policy = MissedFirePolicy(action: .skip)
    case let text?:
      let seconds = try DurationOption.parse(text, option: "--missed", DurationInput.Bounds(noun: "lateness"),
                                             hint: "--missed takes deliver, skip or a duration")
      policy = MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: seconds)
    }
    content.attachments = try attachments.map { try AttachOption.parse($0) }
    return NotificationRequest(identifier: identifier, content: content, trigger: trigger, missedFire: policy)
  }

  func run() async throws {
    let request = try request()
    let atNote = when.atNote
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
        for (sent, stored) in zip(request.content.attachments, result.pending.request.content.attachments) {
          guard let info = stored.info else { continue }
          print("  " + AttachOption.storedText(identifier: stored.identifier, info: info, source: sent.path,
                                              sourceRemains: FileManager.default.fileExists(atPath: sent.path)))
        }
        if let sound = result.pending.sound, !sound.message.isEmpty {
          let why = sound.reason.isEmpty ? "" : "\(sound.reason): "
          print("  sound: plays \(sound.plays.rawValue) — \(why)\(sound.message)")
        }
      }
    }
  }
}
