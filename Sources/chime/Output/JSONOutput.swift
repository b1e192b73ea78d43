import ChimeClient
import ChimeCore
import FoundationEssentials

/// Machine-readable output: plain JSON objects with snake_case keys and ISO 8601 UTC times.
/// Every `--json` output is compact, one JSON value per line: a result, a refusal, and each
/// event of a stream alike, so a script reads any command line by line (`jq .` pretty-prints).
enum JSONOutput {
  static func print(_ value: Any) {
    guard let text = JSONValue(value)?.text() else { return }
    Swift.print(text)
  }

  /// `value` as one line of JSON text (empty when it holds what JSON cannot).
  static func line(_ value: [String: Any]) -> String {
    JSONValue(value)?.text() ?? ""
  }

  /// A refusal as `--json` prints it.
  static func error(_ e: ChimeError, status: Int32) -> [String: Any] {
    ["error": true, "code": "\(e.code)", "reason": e.reason.isEmpty ? "\(e.code)" : e.reason, "message": e.message,
     "field": e.field, "exit_status": Int(status)]
  }

  static func request(_ r: NotificationRequest) -> [String: Any] {
    let c = r.content
    var content: [String: Any] = [
      "title": c.title, "subtitle": c.subtitle, "body": c.body,
      "category": c.categoryIdentifier, "thread": c.threadIdentifier,
      "target_content_id": c.targetContentIdentifier, "interruption_level": cliLevel(c.interruptionLevel),
    ]
    if let badge = c.badge { content["badge"] = badge }
    if let score = c.relevanceScore { content["relevance_score"] = score }
    if !c.userInfoJSON.isEmpty, let object = try? JSONValue.parse(Data(c.userInfoJSON.utf8)) {
      content["user_info"] = object
    }
    if let sound = c.sound {
      var s: [String: Any] = ["kind": "\(sound.kind)"]
      if !sound.name.isEmpty { s["name"] = sound.name }
      if let volume = sound.volume { s["volume"] = volume }
      content["sound"] = s
    }
    if !c.attachments.isEmpty { content["attachments"] = c.attachments.map(attachment) }
    if let localization = c.alertLocalization, !localization.isEmpty { content["alert_localization"] = ContentText.json(localization) }
    if let ring = c.ring {
      content["ring"] = ["seconds": ring.seconds, "for": DurationText.exact(Double(ring.seconds)), "auto_snooze": ring.autoSnooze]
    }
    return ["id": r.identifier, "content": content, "trigger": trigger(r.trigger), "missed": missed(r.missedFire)]
  }

  /// The interruption level as `--level` takes it: `time-sensitive`, not `timeSensitive`.
  static func cliLevel(_ level: InterruptionLevel) -> String {
    level.name.reduce(into: "") { out, c in
      if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
    }
  }

  /// The missed-fire policy as `--missed` takes it: deliver, skip or a duration.
  static func missed(_ p: MissedFirePolicy) -> String {
    switch p.action {
    case .deliver: "deliver"
    case .skip: "skip"
    case .deliverIfLateByLessThan: DurationText.exact(p.maxLatenessSeconds)
    }
  }

  /// Everything `add` took for the trigger, enough to give it again: for a calendar, the
  /// components (and `calendar`, the `--calendar` text), the zone and both DST policies; for
  /// `--at`, also `at`, the instant.
  static func trigger(_ trigger: Trigger?) -> [String: Any] {
    switch trigger {
    case nil: return ["type": "none"]
    case .timeInterval(let t)?:
      var object: [String: Any] = ["type": "time_interval", "seconds": t.seconds, "repeats": t.repeats, "in": DurationText.exact(t.seconds)]
      if let until = t.end?.until { object["until"] = TimeText.iso(until) }
      if let count = t.end?.count { object["count"] = count }
      return object
    case .calendar(let c)?:
      let k = c.components
      var components: [String: Any] = [:]
      let pairs: [(String, Int?)] = [("year", k.year), ("month", k.month), ("day", k.day), ("hour", k.hour), ("minute", k.minute),
                                     ("second", k.second), ("weekday", k.weekday), ("ordinal", k.weekdayOrdinal),
                                     ("week_of_month", k.weekOfMonth), ("week_of_year", k.weekOfYear),
                                     ("year_for_week_of_year", k.yearForWeekOfYear)]
      for (name, value) in pairs { if let value { components[name] = value } }
      if let days = k.weekdays, !days.isEmpty { components["weekdays"] = days }
      var object: [String: Any] = [
        "type": "calendar", "repeats": c.repeats, "components": components, "calendar": CalendarSpec.format(k),
        "tz": k.timeZone ?? JSONValue.Null(), "dst_gap": c.dstGap == .skip ? "skip" : "next",
        "dst_overlap": c.dstOverlap == .both ? "both" : "first",
      ]
      if let weekday = k.weekday, let name = CalendarSpec.weekdayName(weekday) { object["weekday_name"] = name }
      if !c.repeats, CalendarSpec.isInstant(k), let date = TimeText.instantDate(k) { object["at"] = TimeText.iso(Instant(date)) }
      if let until = c.end?.until { object["until"] = TimeText.iso(until) }
      if let count = c.end?.count { object["count"] = count }
      return object
    case .recurrence(let r)?:
      // As given, so a script reads back what it sent.
      return ["type": "recurrence", "repeats": true, "rrule": r.ruleText, "start": r.startText,
              "tz": r.timeZone ?? JSONValue.Null(), "exclude": r.exclusionTexts]
    }
  }

  static func pending(_ p: PendingRequest) -> [String: Any] {
    var object = request(p.request)
    object["next_fire"] = TimeText.iso(p.nextFire)
    object["next_fire_unix_ms"] = p.nextFire.unixMillis
    object["added"] = TimeText.iso(p.added)
    object["fire_count"] = p.fireCount
    if p.snoozeCount > 0 {
      object["snoozed"] = true
      object["snooze_count"] = p.snoozeCount
    }
    if let sound = p.sound { object["sound_resolution"] = soundResolution(sound) }
    if let attributes = p.extensionAttributes { object["extension_attributes"] = extensionAttributes(attributes) }
    return object
  }

  static func delivered(_ d: DeliveredNotification) -> [String: Any] {
    var object = request(d.request)
    object["delivered"] = TimeText.iso(d.delivered)
    object["delivered_unix_ms"] = d.delivered.unixMillis
    object["due"] = TimeText.iso(d.due)
    object["missed"] = d.missed
    object["quiet"] = d.quiet
    object["snooze_count"] = d.snoozeCount
    if d.request.content.ring != nil {
      object["ringing"] = RingRule.isRinging(d, now: Instant(Date()))
      if let end = d.ringEnded { object["ring_ended"] = end.rawValue }
    }
    if let sound = d.sound { object["sound_resolution"] = soundResolution(sound) }
    if let category = d.category { object["category_snapshot"] = CategoryJSON.object(category) }
    if let attributes = d.extensionAttributes { object["extension_attributes"] = extensionAttributes(attributes) }
    if let playback = d.mediaPlayback { object["media_playback"] = playback.rawValue }
    if let push = d.push { object["push"] = Push.json(push) }
    return object
  }

  static func extensionAttributes(_ a: ExtensionAttributes) -> [String: Any] {
    var object: [String: Any] = [
      "default_content_hidden": a.defaultContentHidden, "overrides_default_title": a.overridesDefaultTitle,
      "user_interaction_enabled": a.userInteractionEnabled, "media_button": a.mediaButton.type.rawValue,
    ]
    if let ratio = a.initialContentSizeRatio { object["initial_content_size_ratio"] = ratio }
    if let f = a.mediaButton.frame { object["media_button_frame"] = [f.x, f.y, f.width, f.height] }
    if !a.mediaButton.tintColor.isEmpty { object["media_button_tint"] = a.mediaButton.tintColor }
    return object
  }

  static func response(_ r: NotificationResponse) -> [String: Any] {
    var object: [String: Any] = ["id": r.notificationIdentifier, "action": r.actionIdentifier, "at": TimeText.iso(r.at)]
    if !r.userText.isEmpty { object["text"] = r.userText }
    if r.snoozeSeconds > 0 { object["snooze"] = DurationText.exact(Double(r.snoozeSeconds)) }
    return object
  }

  /// An event as `watch --json` prints it; `cursor` is null for an event that is not stored
  /// (seen live only), which no `--after` resumes from.
  static func event(_ e: Event) -> [String: Any] {
    var object: [String: Any] = [
      "cursor": e.cursor == 0 ? JSONValue.Null() as Any : e.cursor as Any, "at": TimeText.iso(e.at), "kind": e.kind.name, "identifiers": e.identifiers,
    ]
    if !e.note.isEmpty { object["note"] = e.note }
    if let d = e.delivered { object["delivered"] = delivered(d) }
    if let p = e.pending { object["pending"] = pending(p) }
    if let r = e.response { object["response"] = response(r) }
    if let count = e.badgeCount { object["badge_count"] = count }
    return object
  }
}
