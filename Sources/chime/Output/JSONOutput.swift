import ChimeCore
import Foundation

/// Machine-readable output: plain JSON objects with snake_case keys and ISO 8601 UTC times.
enum JSONOutput {
  static func print(_ value: Any, pretty: Bool = true) {
    var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { options.insert(.prettyPrinted) }
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return }
    Swift.print(String(decoding: data, as: UTF8.self))
  }

  static func request(_ r: NotificationRequest) -> [String: Any] {
    let c = r.content
    var content: [String: Any] = [
      "title": c.title, "subtitle": c.subtitle, "body": c.body,
      "category": c.categoryIdentifier, "thread": c.threadIdentifier,
      "target_content_id": c.targetContentIdentifier, "interruption_level": c.interruptionLevel.name,
    ]
    if let badge = c.badge { content["badge"] = badge }
    if let score = c.relevanceScore { content["relevance_score"] = score }
    if !c.userInfoJSON.isEmpty, let data = c.userInfoJSON.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) {
      content["user_info"] = object
    }
    if let sound = c.sound {
      var s: [String: Any] = ["kind": "\(sound.kind)"]
      if !sound.name.isEmpty { s["name"] = sound.name }
      if let volume = sound.volume { s["volume"] = volume }
      content["sound"] = s
    }
    if !c.attachments.isEmpty { content["attachments"] = c.attachments.map(attachment) }
    var object: [String: Any] = ["id": r.identifier, "content": content]
    switch r.trigger {
    case nil: object["trigger"] = ["type": "none"]
    case .timeInterval(let t)?: object["trigger"] = ["type": "time_interval", "seconds": t.seconds, "repeats": t.repeats]
    case .calendar(let c)?: object["trigger"] = ["type": "calendar", "repeats": c.repeats]
    }
    return object
  }

  static func pending(_ p: PendingRequest) -> [String: Any] {
    var object = request(p.request)
    object["next_fire"] = TimeText.iso(p.nextFire)
    object["next_fire_unix_ms"] = p.nextFire.unixMillis
    object["added"] = TimeText.iso(p.added)
    object["fire_count"] = p.fireCount
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
    return object
  }

  static func event(_ e: Event) -> [String: Any] {
    var object: [String: Any] = [
      "cursor": e.cursor, "at": TimeText.iso(e.at), "kind": e.kind.name, "identifiers": e.identifiers,
    ]
    if !e.note.isEmpty { object["note"] = e.note }
    if let d = e.delivered { object["delivered"] = delivered(d) }
    if let p = e.pending { object["pending"] = pending(p) }
    if let r = e.response { object["response"] = response(r) }
    if let count = e.badgeCount { object["badge_count"] = count }
    return object
  }
}
