/// One `Notify` call to an org.freedesktop.Notifications server, decided from a delivered
/// notification, the app, the server's capabilities and what Chime plays. Pure: the presenter
/// only sends it.
public struct DesktopNotificationPlan: Hashable, Sendable {
  /// A hint's value, typed as the specification wants it on the bus.
  public enum HintValue: Hashable, Sendable {
    case string(String)
    case byte(UInt8)
    case boolean(Bool)
  }

  public struct Hint: Hashable, Sendable {
    public var key: String
    public var value: HintValue
    public init(_ key: String, _ value: HintValue) {
      self.key = key
      self.value = value
    }
  }

  /// The action key the specification reserves for clicking the notification itself.
  public static let defaultActionKey = "default"
  /// The label sent with the default action (servers that draw it as a button show this).
  public static let defaultActionLabel = "Open"
  /// The theme sound the server plays for the default sound when it has `sound`.
  public static let defaultSoundName = SoundChoice.defaultEventID

  public var appName: String
  /// The server's id of the notification this one replaces; 0 for a new one.
  public var replacesID: UInt32
  public var appIcon: String
  public var summary: String
  public var body: String
  /// Key, label, key, label, ... as `Notify` takes them.
  public var actions: [String]
  /// In a stable order (the order they are built in).
  public var hints: [Hint]
  /// -1: the server's default.
  public var expireTimeout: Int32
  /// What Chime plays itself: the sound when the server cannot play it, else silent.
  public var chimePlays: SoundChoice

  public func hint(_ key: String) -> HintValue? { hints.first { $0.key == key }?.value }

  /// The app as the desktop knows it.
  public struct App: Hashable, Sendable {
    public var id: String
    /// Shown as the notification's app name; nil: the id.
    public var displayName: String?
    /// The app's `.desktop` file name without the suffix (the `desktop-entry` hint).
    public var desktopEntry: String?
    public init(id: String, displayName: String? = nil, desktopEntry: String? = nil) {
      self.id = id
      self.displayName = displayName
      self.desktopEntry = desktopEntry
    }
  }

  /// - Parameters:
  ///   - capabilities: what the server's `GetCapabilities` answered.
  ///   - thumbnailPath: the image to show (`image-path`), nil for none.
  ///   - sound: what the delivery plays (`PresentationDecision.sound`).
  ///   - replacesID: the server's id of this identifier's earlier notification, 0 for none.
  ///   - rings: shown as a ringing alarm (`ringing(capabilities:sound:)`).
  public static func make(_ delivered: DeliveredNotification, app: App, capabilities: Set<String>, thumbnailPath: String?,
                          sound: SoundChoice, replacesID: UInt32 = 0, rings: Bool = false) -> DesktopNotificationPlan {
    let content = delivered.request.content
    let markup = capabilities.contains("body-markup")
    var hints: [Hint] = [Hint("urgency", .byte(urgency(content.interruptionLevel)))]
    if !content.categoryIdentifier.isEmpty { hints.append(Hint("category", .string(content.categoryIdentifier))) }
    if let entry = app.desktopEntry, !entry.isEmpty { hints.append(Hint("desktop-entry", .string(entry))) }
    if let thumbnailPath, !thumbnailPath.isEmpty { hints.append(Hint("image-path", .string(thumbnailPath))) }
    // No freedesktop server groups by thread; the id travels for servers (and scripts) that look.
    if !content.threadIdentifier.isEmpty { hints.append(Hint("x-chime-thread-id", .string(content.threadIdentifier))) }
    var chimePlays = SoundChoice.silent
    if capabilities.contains("sound") {
      switch sound {
      case .silent: hints.append(Hint("suppress-sound", .boolean(true)))
      case .file(let path, _): hints.append(Hint("sound-file", .string(path)))
      case .themeDefault: hints.append(Hint("sound-name", .string(defaultSoundName)))
      }
    } else {
      // The server plays nothing of ours; it must not play its own either.
      hints.append(Hint("suppress-sound", .boolean(true)))
      chimePlays = sound
    }
    let plan = DesktopNotificationPlan(
      appName: app.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? app.id, replacesID: replacesID, appIcon: "",
      summary: content.title, body: body(title: content.subtitle, text: content.body, markup: markup),
      actions: capabilities.contains("actions") ? actions(delivered.category) : [], hints: hints,
      expireTimeout: -1, chimePlays: chimePlays)
    return rings ? plan.ringing(capabilities: capabilities, sound: sound) : plan
  }

  /// passive → low (0), active → normal (1), timeSensitive and critical → critical (2).
  public static func urgency(_ level: InterruptionLevel) -> UInt8 {
    switch level {
    case .passive: 0
    case .active: 1
    case .timeSensitive, .critical: 2
    }
  }

  /// The subtitle and body, one per line; with `markup` both are escaped and the subtitle is bold.
  public static func body(title subtitle: String, text: String, markup: Bool) -> String {
    guard markup else { return [subtitle, text].filter { !$0.isEmpty }.joined(separator: "\n") }
    var lines: [String] = []
    if !subtitle.isEmpty { lines.append("<b>" + escape(subtitle) + "</b>") }
    if !text.isEmpty { lines.append(escape(text)) }
    return lines.joined(separator: "\n")
  }

  /// `&`, `<`, `>`, `"` and `'` as entities: the body-markup subset is XML.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for ch in text {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(ch)
      }
    }
    return out
  }

  /// The default action first, then the category's actions in order, then its snooze
  /// durations ("Snooze 5 min"). Text-input actions are left out: a freedesktop server has no
  /// field to type their text in.
  public static func actions(_ category: NotificationCategory?) -> [String] {
    var list = [defaultActionKey, defaultActionLabel]
    for action in category?.actions ?? [] where action.textInput == nil {
      list += [actionKey(action.identifier), action.title]
    }
    for seconds in category?.snoozeSeconds ?? [] {
      guard let duration = try? SnoozeDuration(seconds: seconds) else { continue }
      list += [snoozeKeyPrefix + String(seconds), duration.buttonTitle]
    }
    return list
  }

  private static let escapedKeyPrefix = "chime-action:"
  /// A snooze button's key: the prefix and the duration in seconds (`chime-snooze:300`).
  public static let snoozeKeyPrefix = "chime-snooze:"

  /// The key an action is sent with: its identifier, except that one spelled like the
  /// reserved `default` key (or like an escaped or a snooze key) is prefixed so
  /// `actionIdentifier` can undo it.
  public static func actionKey(_ identifier: String) -> String {
    identifier == defaultActionKey || identifier.hasPrefix(escapedKeyPrefix) || identifier.hasPrefix(snoozeKeyPrefix)
      ? escapedKeyPrefix + identifier : identifier
  }

  /// The action identifier a server's `ActionInvoked` key names: `default` is the default
  /// action, a snooze key `chime.snooze`.
  public static func actionIdentifier(forKey key: String) -> String {
    if key == defaultActionKey { return NotificationAction.defaultIdentifier }
    if key.hasPrefix(escapedKeyPrefix) { return String(key.dropFirst(escapedKeyPrefix.count)) }
    if key.hasPrefix(snoozeKeyPrefix) { return NotificationAction.snoozeIdentifier }
    return key
  }

  /// The response a server's `ActionInvoked` key makes for notification `identifier`: the
  /// action it names, with the duration of a snooze button (0 when the key's is unreadable:
  /// the response is then refused as any bad duration is).
  public static func response(forKey key: String, notification identifier: String) -> NotificationResponse {
    var response = NotificationResponse(notificationIdentifier: identifier, actionIdentifier: actionIdentifier(forKey: key))
    if key.hasPrefix(snoozeKeyPrefix) { response.snoozeSeconds = Int64(key.dropFirst(snoozeKeyPrefix.count)) ?? 0 }
    return response
  }

  /// `NotificationClosed` reason 2: the user dismissed it.
  public static let closedByUser: UInt32 = 2

  /// The response a `NotificationClosed` becomes: the dismiss action, only when the user closed
  /// it and its category asks for custom dismiss actions (as on Apple's platforms); else none.
  public static func dismissResponse(reason: UInt32, category: NotificationCategory?) -> String? {
    guard reason == closedByUser, category?.options.contains(.customDismissAction) == true else { return nil }
    return NotificationAction.dismissIdentifier
  }
}
