/// An APNs-style JSON payload read into notification content: `aps.alert` (a string, or
/// `title` / `subtitle` / `body`, `launch-image` and the `*-loc-key` / `*-loc-args` forms,
/// recorded as given), `aps.badge`, `aps.sound` (a name, or the critical dictionary with
/// `critical`, `name`, `volume`), `aps.category`, `aps.thread-id`, `aps.mutable-content`,
/// `aps.interruption-level`, `aps.relevance-score`, `aps.target-content-id`; every key
/// outside `aps` becomes user info, exactly as written. Unknown keys inside `aps` are ignored,
/// as APNs does. Pure: bytes in, content or a refusal naming the field out.
public struct PushPayload: Hashable, Sendable {
  public var content: NotificationContent
  /// `aps.mutable-content` is 1: a live service extension may replace the content.
  public var mutableContent: Bool

  /// APNs' limit for a regular push.
  public static let maxBytesDefault = 4096

  /// - Throws: INVALID_ARGUMENT `PUSH_PAYLOAD_TOO_LARGE` (field `payload`) over `maxBytes`;
  ///   `INVALID_PUSH_PAYLOAD` when it is not a JSON object (`payload`), `aps` is missing or not
  ///   an object (`aps`), or a field has the wrong type (`aps.alert.title`, ...);
  ///   `UNKNOWN_INTERRUPTION_LEVEL` (`aps.interruption-level`). Content rules are `Add`'s and
  ///   checked by the caller.
  public static func parse(_ bytes: [UInt8], maxBytes: Int = maxBytesDefault) throws(ChimeError) -> PushPayload {
    guard bytes.count <= maxBytes else {
      throw ChimeError(.pushPayloadTooLarge, "the payload is \(bytes.count) bytes; the limit is \(maxBytes)", field: "payload")
    }
    let root: JSONDocument
    switch JSONDocument.parseOrExplain(bytes, maxDepth: Limits.userInfoMaxDepth) {
    case .success(let value): root = value
    case .failure(let error):
      throw ChimeError(.invalidPushPayload, "the payload is not JSON: \(error.description)", field: "payload")
    }
    guard case .object(let members) = root else {
      throw ChimeError(.invalidPushPayload, "the payload is \(root.kindName), not a JSON object", field: "payload")
    }
    guard let aps = root["aps"] else {
      throw ChimeError(.invalidPushPayload, "the payload has no \"aps\" dictionary", field: "aps")
    }
    guard case .object = aps else {
      throw ChimeError(.invalidPushPayload, "aps is \(aps.kindName), not an object", field: "aps")
    }
    var content = NotificationContent()
    var payload = PushPayload(content: content, mutableContent: false)

    switch aps["alert"] {
    case nil: break
    case .string(let body)?: content.body = body
    case let alert?:
      guard case .object = alert else { throw wrongType("aps.alert", alert, "a string or an object") }
      content.title = try string(alert, "title", "aps.alert") ?? ""
      content.subtitle = try string(alert, "subtitle", "aps.alert") ?? ""
      content.body = try string(alert, "body", "aps.alert") ?? ""
      content.launchImageName = try string(alert, "launch-image", "aps.alert") ?? ""
      var loc = AlertLocalization()
      loc.titleLocKey = try string(alert, "title-loc-key", "aps.alert") ?? ""
      loc.titleLocArgs = try strings(alert, "title-loc-args", "aps.alert")
      loc.subtitleLocKey = try string(alert, "subtitle-loc-key", "aps.alert") ?? ""
      loc.subtitleLocArgs = try strings(alert, "subtitle-loc-args", "aps.alert")
      loc.locKey = try string(alert, "loc-key", "aps.alert") ?? ""
      loc.locArgs = try strings(alert, "loc-args", "aps.alert")
      if !loc.isEmpty { content.alertLocalization = loc }
    }
    if let badge = try number(aps, "badge", "aps") {
      guard badge == badge.rounded(), abs(badge) < 9e15 else { throw wrongType("aps.badge", .number(badge), "an integer") }
      content.badge = Int64(badge)
    }
    switch aps["sound"] {
    case nil: break
    case .string(let name)?: content.sound = name == "default" ? .default : .named(name)
    case let sound?:
      guard case .object = sound else { throw wrongType("aps.sound", sound, "a string or an object") }
      let critical = (try number(sound, "critical", "aps.sound") ?? 0) == 1
      let name = try string(sound, "name", "aps.sound") ?? "default"
      let volume = try number(sound, "volume", "aps.sound")
      if critical {
        content.sound = Sound(kind: name == "default" ? .defaultCritical : .criticalNamed, name: name == "default" ? "" : name, volume: volume)
      } else {
        content.sound = name == "default" ? .default : .named(name)
      }
    }
    content.categoryIdentifier = try string(aps, "category", "aps") ?? ""
    content.threadIdentifier = try string(aps, "thread-id", "aps") ?? ""
    content.targetContentIdentifier = try string(aps, "target-content-id", "aps") ?? ""
    payload.mutableContent = try number(aps, "mutable-content", "aps") == 1
    if let level = try string(aps, "interruption-level", "aps") {
      guard let parsed = interruptionLevels[level] else {
        throw ChimeError(.unknownInterruptionLevel, "interruption-level \"\(level)\" is not passive, active, time-sensitive or critical",
                         field: "aps.interruption-level")
      }
      content.interruptionLevel = parsed
    }
    content.relevanceScore = try number(aps, "relevance-score", "aps")

    // User info: every member outside aps, as written (the last of a repeated key).
    let others = members.enumerated().filter { i, m in m.key != "aps" && !members[(i + 1)...].contains { $0.key == m.key } }
    if !others.isEmpty {
      var text: [UInt8] = [UInt8(ascii: "{")]
      for (n, (_, member)) in others.enumerated() {
        if n > 0 { text.append(UInt8(ascii: ",")) }
        text.append(contentsOf: member.raw)
      }
      text.append(UInt8(ascii: "}"))
      content.userInfoJSON = String(decoding: text, as: UTF8.self)
    }
    payload.content = content
    return payload
  }

  /// APNs' spellings.
  static let interruptionLevels: [String: InterruptionLevel] = [
    "passive": .passive, "active": .active, "time-sensitive": .timeSensitive, "critical": .critical,
  ]

  private static func wrongType(_ field: String, _ value: JSONDocument, _ expected: String) -> ChimeError {
    ChimeError(.invalidPushPayload, "\(field) is \(value.kindName); it must be \(expected)", field: field)
  }

  private static func string(_ object: JSONDocument, _ key: String, _ path: String) throws(ChimeError) -> String? {
    switch object[key] {
    case nil: return nil
    case .string(let s)?: return s
    case let other?: throw wrongType("\(path).\(key)", other, "a string")
    }
  }

  private static func number(_ object: JSONDocument, _ key: String, _ path: String) throws(ChimeError) -> Double? {
    switch object[key] {
    case nil: return nil
    case .number(let n)?: return n
    case let other?: throw wrongType("\(path).\(key)", other, "a number")
    }
  }

  private static func strings(_ object: JSONDocument, _ key: String, _ path: String) throws(ChimeError) -> [String] {
    switch object[key] {
    case nil: return []
    case .array(let items)?:
      var out: [String] = []
      for (i, item) in items.enumerated() {
        // APNs formats loc-args as strings; numbers are accepted as written.
        switch item {
        case .string(let s): out.append(s)
        case .number(let n): out.append(n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n))
        default: throw wrongType("\(path).\(key)[\(i)]", item, "a string")
        }
      }
      return out
    case let other?: throw wrongType("\(path).\(key)", other, "an array of strings")
    }
  }
}
