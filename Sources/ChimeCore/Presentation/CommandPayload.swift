/// The JSON a command presenter gets on stdin: one object per delivery. Keys are stable;
/// `userInfo` is the content's own JSON object, embedded as is.
public struct CommandPayload: Hashable, Sendable, Encodable {
  public struct Action: Hashable, Sendable, Encodable {
    public var identifier: String
    public var title: String

    public init(identifier: String, title: String) {
      self.identifier = identifier
      self.title = title
    }
  }

  public var app: String
  public var appName: String
  public var identifier: String
  public var title: String
  public var subtitle: String
  public var body: String
  public var categoryIdentifier: String
  public var threadIdentifier: String
  public var interruptionLevel: String
  /// freedesktop urgency: 0 low, 1 normal, 2 critical.
  public var urgency: UInt8
  /// Milliseconds since the Unix epoch.
  public var deliveredMillis: Int64
  public var missed: Bool
  /// The sound file Chime plays (empty: none or the default sound).
  public var soundFile: String
  /// True when the default sound plays.
  public var soundDefault: Bool
  public var attachments: [String]
  public var actions: [Action]

  public init(_ delivered: DeliveredNotification, app: DesktopNotificationPlan.App, sound: SoundChoice) {
    let content = delivered.request.content
    self.app = app.id
    appName = app.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? app.id
    identifier = delivered.request.identifier
    title = content.title
    subtitle = content.subtitle
    body = content.body
    categoryIdentifier = content.categoryIdentifier
    threadIdentifier = content.threadIdentifier
    interruptionLevel = content.interruptionLevel.name
    urgency = DesktopNotificationPlan.urgency(content.interruptionLevel)
    deliveredMillis = delivered.delivered.unixMillis
    missed = delivered.missed
    switch sound {
    case .file(let path, _): (soundFile, soundDefault) = (path, false)
    case .themeDefault: (soundFile, soundDefault) = ("", true)
    case .silent: (soundFile, soundDefault) = ("", false)
    }
    attachments = content.attachments.compactMap { $0.info?.storePath }.filter { !$0.isEmpty }
    actions = (delivered.category?.actions ?? []).map { Action(identifier: $0.identifier, title: $0.title) }
    userInfoJSON = content.userInfoJSON
  }

  private var userInfoJSON: String

  private enum CodingKeys: String, CodingKey {
    case app, appName, identifier, title, subtitle, body, categoryIdentifier, threadIdentifier, interruptionLevel, urgency,
      deliveredMillis, missed, soundFile, soundDefault, attachments, actions
  }

  /// The JSON object (keys sorted, as `JSONEncoder`'s `.sortedKeys` writes them; `userInfo`
  /// last) and a newline. Strings as `JSONWriter` writes them, slashes unescaped.
  public func json() -> String {
    typealias M = JSONWriter.Member
    let object = JSONWriter.Value.object([
      M("actions", .array(actions.map { .object([M("identifier", .string($0.identifier)), M("title", .string($0.title))]) })),
      M("app", .string(app)),
      M("appName", .string(appName)),
      M("attachments", .array(attachments.map { .string($0) })),
      M("body", .string(body)),
      M("categoryIdentifier", .string(categoryIdentifier)),
      M("deliveredMillis", .integer(deliveredMillis)),
      M("identifier", .string(identifier)),
      M("interruptionLevel", .string(interruptionLevel)),
      M("missed", .bool(missed)),
      M("soundDefault", .bool(soundDefault)),
      M("soundFile", .string(soundFile)),
      M("subtitle", .string(subtitle)),
      M("threadIdentifier", .string(threadIdentifier)),
      M("title", .string(title)),
      M("urgency", .integer(Int64(urgency))),
    ])
    var text = JSONWriter.text(object)
    // userInfo was validated as a JSON object when the request was added.
    let info = userInfoJSON.trimmingWhitespaceAndNewlines()
    text.removeLast()
    text += ",\"userInfo\":" + (info.isEmpty ? "{}" : info) + "}"
    return text + "\n"
  }
}
