/// What a notification shows (UNNotificationContent).
public struct NotificationContent: Hashable, Sendable {
  public var title: String = ""
  public var subtitle: String = ""
  public var body: String = ""
  /// Badge number; nil leaves the badge alone, 0 clears it.
  public var badge: Int64?
  /// nil means silent.
  public var sound: Sound?
  /// A JSON object as UTF-8 text; empty means `{}`.
  public var userInfoJSON: String = ""
  public var attachments: [Attachment] = []
  public var categoryIdentifier: String = ""
  public var threadIdentifier: String = ""
  public var targetContentIdentifier: String = ""
  public var interruptionLevel: InterruptionLevel = .active
  /// 0...1; nil means 0.
  public var relevanceScore: Double?
  public var summaryArgument: String = ""
  public var launchImageName: String = ""
  /// A pushed alert's localization keys, recorded as given (nil when there are none).
  public var alertLocalization: AlertLocalization?
  /// An alarm: the sound repeats once delivered (nil: it plays once).
  public var ring: Ring?

  public init(title: String = "", subtitle: String = "", body: String = "") {
    self.title = title
    self.subtitle = subtitle
    self.body = body
  }

  /// True when there is something to show or hear.
  public var hasContent: Bool {
    !title.isEmpty || !subtitle.isEmpty || !body.isEmpty || !attachments.isEmpty
      || (sound != nil && sound?.kind != Sound.Kind.none) || badge != nil || alertLocalization?.isEmpty == false
  }
}
