import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation

struct Add: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Schedule a notification (the same identifier replaces the earlier one).",
    discussion: """
      Without --in or --at the notification is delivered at once.

      Examples:
        chime add tea --title "Tea" --body "Steeped" --in 10s
        chime add stretch --title "Stretch" --in 1h --repeats
        chime add standup --title "Standup" --at 2026-11-23T09:30:00+01:00
        chime add ping --title "Ping" --badge 3 --user-info '{"room": 4}' --level time-sensitive
        chime add standup --title "Standup" --calendar "weekday=mon,hour=9,minute=30" --tz Europe/Berlin --repeats
      """
  )

  @OptionGroup var options: ClientOptions

  @Argument(help: "Request identifier (1–256 bytes).")
  var identifier: String

  @Option(help: "Title.") var title = ""
  @Option(help: "Subtitle.") var subtitle = ""
  @Option(help: "Body text.") var body = ""
  @Option(help: "Badge number (0 clears the badge).") var badge: Int64?
  @Option(help: "default, none, or a sound file name.") var sound: String?
  @Flag(help: "Critical alert sound (with --sound NAME for a custom one).") var critical = false
  @Option(help: "Critical alert volume, 0–1.") var volume: Double?
  @Option(name: .customLong("user-info"), help: "User info: a JSON object.") var userInfo = ""
  @Option(help: "Category identifier.") var category = ""
  @Option(help: "Thread identifier.") var thread = ""
  @Option(name: .customLong("target-content-id"), help: "Target content identifier.") var targetContentID = ""
  @Option(help: "Interruption level: passive, active, time-sensitive, critical.") var level: String?
  @Option(help: "Relevance score, 0–1.") var relevance: Double?
  @Option(name: .customLong("in"), help: "Fire after this long: 90s, 10m, 2h, 1h30m, 1d.") var after: String?
  @Option(help: "Fire at this instant (ISO 8601, e.g. 2026-11-23T09:30:00Z).") var at: String?
  @Option(help: "Fire when the date matches these components, e.g. \"weekday=mon,hour=9,minute=30\" (see chime next --help).")
  var calendar: String?
  @Option(help: "IANA time zone for --calendar (default: floating, follows the daemon's zone).") var tz: String?
  @Option(help: "DST gap policy for --calendar when the hour is fixed: next (default) or skip.") var dstGap = "next"
  @Option(help: "DST overlap policy for --calendar when the hour is fixed: first (default) or both.") var dstOverlap = "first"
  @Flag(help: "Repeat every --in interval (at least 60s), or every --calendar match.") var repeats = false
  @Option(help: "Missed fires: deliver (default), skip, or a duration such as 10m (deliver only if late by less).")
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
      let normalized = level.replacingOccurrences(of: "-", with: "").lowercased()
      guard let parsed = InterruptionLevel.allCases.first(where: { $0.name.lowercased() == normalized }) else {
        throw ValidationError("--level must be passive, active, time-sensitive or critical")
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

    var trigger: Trigger?
    if calendar != nil && (after != nil || at != nil) { throw ValidationError("give --calendar, --in or --at, not several") }
    switch (after, at) {
    case (_?, _?):
      throw ValidationError("give --in or --at, not both")
    case (let text?, nil):
      trigger = try TriggerOptions.trigger(calendar: nil, tz: nil, interval: text, repeats: repeats, dstGap: dstGap, dstOverlap: dstOverlap)
    case (nil, let text?):
      guard let date = ISO8601Parsing.parse(text) else { throw ValidationError("--at: \"\(text)\" is not an ISO 8601 date-time") }
      if repeats { throw ValidationError("--repeats goes with --in") }
      trigger = .timeInterval(TimeIntervalTrigger(seconds: date.timeIntervalSinceNow))
    case (nil, nil):
      trigger = try TriggerOptions.trigger(calendar: calendar, tz: tz, interval: nil, repeats: repeats, dstGap: dstGap, dstOverlap: dstOverlap)
      if trigger == nil && repeats { throw ValidationError("--repeats needs --in or --calendar") }
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
    try await reporting {
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

enum ISO8601Parsing {
  static func parse(_ text: String) -> Date? {
    let withFraction = ISO8601DateFormatter()
    withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let plain = ISO8601DateFormatter()
    plain.formatOptions = [.withInternetDateTime]
    return plain.date(from: text) ?? withFraction.date(from: text)
  }
}
