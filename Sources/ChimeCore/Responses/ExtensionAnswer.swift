/// What a content extension answered about a response before chimed acts on it (or
/// `.noExtension` when none handles the category, or none answered before the deadline).
public enum ExtensionAnswer: Hashable, Sendable {
  /// No extension handles the notification's category (or none answered in time).
  case noExtension
  /// Keep the notification delivered; the app is not told (UNNotificationContentExtensionResponseOption.doNotDismiss).
  case doNotDismiss
  /// Remove the notification; the app is not told (`.dismiss`).
  case dismiss
  /// Remove the notification and tell the app (`.dismissAndForwardAction`).
  case dismissAndForward
}
