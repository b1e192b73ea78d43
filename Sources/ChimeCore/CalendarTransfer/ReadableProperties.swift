/// The `X-CHIME-…` properties export writes for people and scripts beside X-CHIME-REQUEST:
/// the parts of the content RFC 5545 has no property for. On import they win over the record
/// (someone who edited X-CHIME-CATEGORY in the file meant it); one that is absent leaves the
/// record's value. A critical sound (its kind and volume) is in the record only.
public enum ReadableProperties {
  public static let subtitle = "X-CHIME-SUBTITLE"
  public static let category = "X-CHIME-CATEGORY"
  public static let thread = "X-CHIME-THREAD"
  public static let sound = "X-CHIME-SOUND"
  public static let userInfo = "X-CHIME-USER-INFO"

  /// The properties for `content` (empty values left out).
  static func of(_ content: NotificationContent) -> [ExportedEvent.Property] {
    var result: [ExportedEvent.Property] = []
    func add(_ name: String, _ value: String) { if !value.isEmpty { result.append(.init(name, value)) } }
    add(subtitle, content.subtitle)
    add(category, content.categoryIdentifier)
    add(thread, content.threadIdentifier)
    switch content.sound?.kind {
    case .default?: add(sound, "default")
    case .none?: add(sound, "none")
    case .named?: add(sound, content.sound?.name ?? "")
    case .defaultCritical?, .criticalNamed?, nil: break
    }
    add(userInfo, content.userInfoJSON)
    return result
  }

  /// `content` with the values of `properties` (by upper-cased name) put in.
  static func apply(_ properties: [String: String], to content: inout NotificationContent) {
    if let value = properties[subtitle] { content.subtitle = value }
    if let value = properties[category] { content.categoryIdentifier = value }
    if let value = properties[thread] { content.threadIdentifier = value }
    if let value = properties[userInfo] { content.userInfoJSON = value }
    switch properties[sound] {
    case nil: break
    case "default"?: if content.sound?.kind != .default { content.sound = .default }
    case "none"?: content.sound = Sound.none
    case let name?: if content.sound?.kind != .named || content.sound?.name != name { content.sound = .named(name) }
    }
  }
}
