/// Chime's own "Allow notifications?" notification (policy `ask`): what it says, the category
/// with its two buttons, and what an answer to it means. One per asking app, posted as a
/// delivered notification of Chime's own app (`appID`), which no client may act as, so only
/// the desktop's button (or the user's `chime apps` / the Center) answers it. Pure.
public enum AuthorizationPrompt {
  /// Chime's own app: the prompts are its notifications. Reserved: no client may declare it.
  public static let appID = "io.github.chime"
  /// The prompt for app X is the notification `authorization.X` of `appID`.
  public static let identifierPrefix = "authorization."
  public static let categoryIdentifier = "chime.authorization"
  public static let allowAction = "allow"
  public static let denyAction = "deny"

  /// The prompt's category: Allow and Don't Allow, and the desktop's dismissal reported (a
  /// dismissal answers nothing: the app may ask again).
  public static let category = NotificationCategory(
    identifier: categoryIdentifier,
    actions: [NotificationAction(identifier: allowAction, title: "Allow"),
              NotificationAction(identifier: denyAction, title: "Don't Allow", options: .destructive)],
    options: .customDismissAction)

  /// The identifier of `app`'s prompt.
  public static func identifier(for app: String) -> String { identifierPrefix + app }

  /// What the prompt of `app` says, named `displayName` (its registered name; the app id when
  /// it has none), asking for `options`: "Tea Timer would like to send you notifications:
  /// alerts, sounds, badges".
  public static func content(displayName: String, options: AuthorizationOptions) -> NotificationContent {
    let name = displayName.isEmpty ? "An app" : displayName
    let asked = optionNames(options)
    var content = NotificationContent(
      title: "Allow notifications?",
      body: "\(name) would like to send you notifications" + (asked.isEmpty ? "" : ": " + asked.joined(separator: ", ")))
    content.categoryIdentifier = categoryIdentifier
    // It stays until answered: the desktop must not let it time out unnoticed.
    content.interruptionLevel = .timeSensitive
    return content
  }

  /// The permissions in `options` as the prompt names them, in a fixed order.
  public static func optionNames(_ options: AuthorizationOptions) -> [String] {
    let names: [(AuthorizationOptions, String)] = [
      (.alert, "alerts"), (.sound, "sounds"), (.badge, "badges"), (.criticalAlert, "critical alerts"),
      (.timeSensitive, "time-sensitive notifications"), (.carPlay, "CarPlay"), (.announcement, "announcements"),
    ]
    return names.filter { options.contains($0.0) }.map(\.1)
  }

  /// The request posting `app`'s prompt.
  public static func request(app: String, displayName: String, options: AuthorizationOptions) -> NotificationRequest {
    NotificationRequest(identifier: identifier(for: app), content: content(displayName: displayName, options: options))
  }

  /// The user's answer a response to one of Chime's own notifications gives: the app it is
  /// about and the status chosen. Nil for anything else (another notification, opening it,
  /// dismissing it: no answer, the app stays not determined).
  public static func answer(to response: NotificationResponse) -> (app: String, status: AuthorizationStatus)? {
    let identifier = response.notificationIdentifier
    guard identifier.hasPrefix(identifierPrefix) else { return nil }
    let app = String(identifier.dropFirst(identifierPrefix.count))
    guard !app.isEmpty else { return nil }
    switch response.actionIdentifier {
    case allowAction: return (app, .authorized)
    case denyAction: return (app, .denied)
    default: return nil
    }
  }

  /// Refuses a caller declaring Chime's own app id: only chimed posts and answers as it.
  ///
  /// - Throws: PERMISSION_DENIED `RESERVED_APP_ID`.
  public static func checkCaller(declared: String) throws(ChimeError) {
    guard declared == appID else { return }
    throw ChimeError(.reservedAppID, "\(appID) is Chime's own app: only chimed posts and answers its notifications", field: "app_id")
  }
}
