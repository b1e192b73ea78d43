/// A kind of notification an app declares, with the actions it offers (UNNotificationCategory).
/// An app's categories are replaced all at once; a delivered notification keeps a snapshot of
/// its category as it was at delivery.
public struct NotificationCategory: Hashable, Sendable {
  /// How notifications of the category are handled (UNNotificationCategoryOptions).
  public struct Options: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A dismissal is reported as a response (`chime.dismiss`); without it, `chime.dismiss` is refused.
    public static let customDismissAction = Options(rawValue: 1 << 0)
    /// The title stays visible when previews are hidden.
    public static let hiddenPreviewsShowTitle = Options(rawValue: 1 << 1)
    /// The subtitle stays visible when previews are hidden.
    public static let hiddenPreviewsShowSubtitle = Options(rawValue: 1 << 2)
  }

  /// Matched against `NotificationContent.categoryIdentifier`; unique within the app.
  public var identifier: String
  /// In display order; at most `Limits.actionsPerCategoryMax`.
  public var actions: [NotificationAction]
  public var intentIdentifiers: [String]
  public var options: Options
  /// Shown instead of the body when previews are hidden; empty for the system's text.
  public var hiddenPreviewsBodyPlaceholder: String
  /// The summary of a group of these notifications, e.g. "%u more invitations"; empty for none.
  public var summaryFormat: String
  /// Snooze durations offered after the actions, in seconds (`SnoozeDuration` bounds them).
  public var snoozeSeconds: [Int64] = []

  public init(identifier: String, actions: [NotificationAction] = [], intentIdentifiers: [String] = [], options: Options = [],
              hiddenPreviewsBodyPlaceholder: String = "", summaryFormat: String = "") {
    self.identifier = identifier
    self.actions = actions
    self.intentIdentifiers = intentIdentifiers
    self.options = options
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    self.summaryFormat = summaryFormat
  }

  /// The action named `identifier`, or nil.
  public func action(_ identifier: String) -> NotificationAction? {
    actions.first { $0.identifier == identifier }
  }
}
