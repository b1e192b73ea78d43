/// A button a notification of some category offers (UNNotificationAction, and
/// UNTextInputNotificationAction when `textInput` is set).
public struct NotificationAction: Hashable, Sendable {
  /// How the action behaves (UNNotificationActionOptions).
  public struct Options: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The device must be unlocked first.
    public static let authenticationRequired = Options(rawValue: 1 << 0)
    /// Shown as destructive (e.g. in red).
    public static let destructive = Options(rawValue: 1 << 1)
    /// Brings the app to the foreground.
    public static let foreground = Options(rawValue: 1 << 2)
  }

  /// Unique within its category; never `chime.default` or `chime.dismiss`.
  public var identifier: String
  public var title: String
  public var options: Options
  /// An icon name (freedesktop icon theme name or a file in the app's bundle); empty for none.
  public var icon: String
  /// Set for an action that asks for text (a reply field).
  public var textInput: TextInput?

  public init(identifier: String, title: String, options: Options = [], icon: String = "", textInput: TextInput? = nil) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.icon = icon
    self.textInput = textInput
  }

  /// The text field of a text-input action.
  public struct TextInput: Hashable, Sendable {
    public var buttonTitle: String
    public var placeholder: String

    public init(buttonTitle: String = "", placeholder: String = "") {
      self.buttonTitle = buttonTitle
      self.placeholder = placeholder
    }
  }

  /// The action a response names when the user opened the notification itself
  /// (UNNotificationDefaultActionIdentifier).
  public static let defaultIdentifier = "chime.default"
  /// The action a response names when the user dismissed the notification
  /// (UNNotificationDismissActionIdentifier); only for categories with `customDismissAction`.
  public static let dismissIdentifier = "chime.dismiss"
  /// The action a response names when the user chose one of the category's snooze durations
  /// (`NotificationResponse.snoozeSeconds`).
  public static let snoozeIdentifier = "chime.snooze"
}
