/// What a response does (pure): which responses are accepted for a delivered notification,
/// and, given an extension's answer, whether the notification leaves the delivered list and
/// whether the app's subscribers get a `response` event.
public struct ResponsePlan: Hashable, Sendable {
  /// The notification leaves the delivered list.
  public var removesDelivered: Bool
  /// A `response` event goes to the app's subscribers.
  public var forwardsToApp: Bool
  /// The notification leaves the delivered list by being snoozed for this long (a `chime.snooze`
  /// response that no content extension handled); `removesDelivered` is then false.
  public var snoozes: SnoozeDuration?

  public init(removesDelivered: Bool, forwardsToApp: Bool, snoozes: SnoozeDuration? = nil) {
    self.removesDelivered = removesDelivered
    self.forwardsToApp = forwardsToApp
    self.snoozes = snoozes
  }

  /// Checks what can be checked without the store: the notification identifier, the action
  /// identifier and the text's size.
  ///
  /// - Throws: INVALID_ARGUMENT `INVALID_IDENTIFIER`, `FIELD_TOO_LONG`, `FIELD_CONTAINS_NUL`,
  ///   `INVALID_SNOOZE_DURATION` (a `chime.snooze` response outside 1 minute ... 1 week).
  public static func validate(_ response: NotificationResponse) throws(ChimeError) {
    try RequestValidator.validateIdentifier(response.notificationIdentifier, field: "response.notification_identifier")
    try RequestValidator.validateIdentifier(response.actionIdentifier, field: "response.action_identifier")
    try CategoryValidator.text(response.userText, Limits.textMaxBytes, field: "response.user_text")
    if response.actionIdentifier == NotificationAction.snoozeIdentifier {
      _ = try SnoozeDuration(seconds: response.snoozeSeconds, field: "response.snooze_seconds")
    }
  }

  /// Checks `response` against `delivered` (nil when the app has no such delivered
  /// notification) and its category snapshot.
  ///
  /// - Throws: NOT_FOUND `NOTIFICATION_NOT_DELIVERED`; INVALID_ARGUMENT `UNKNOWN_ACTION`,
  ///   `TEXT_NOT_ACCEPTED`, `TEXT_REQUIRED`, `SNOOZE_NOT_OFFERED`; FAILED_PRECONDITION
  ///   `DISMISS_NOT_ENABLED`.
  public static func check(_ response: NotificationResponse, delivered: DeliveredNotification?) throws(ChimeError) {
    let id = response.notificationIdentifier
    guard let delivered else {
      throw ChimeError(.notificationNotDelivered, "no delivered notification \"\(id)\"", field: "response.notification_identifier")
    }
    let action = response.actionIdentifier
    let category = delivered.category
    let acceptsText: Bool
    switch action {
    case NotificationAction.defaultIdentifier:
      acceptsText = false
    case NotificationAction.dismissIdentifier:
      guard let category, category.options.contains(.customDismissAction) else {
        let which = delivered.category.map { "category \"\($0.identifier)\"" } ?? "a notification without a category"
        throw ChimeError(.dismissNotEnabled, "dismissals are reported only for categories with customDismissAction, not for \(which)",
                         field: "response.action_identifier")
      }
      acceptsText = false
    case NotificationAction.snoozeIdentifier:
      guard let category, category.snoozeSeconds.contains(response.snoozeSeconds) else {
        let offered = category.map { c in
          c.snoozeSeconds.isEmpty ? "category \"\(c.identifier)\" offered no snooze"
            : "category \"\(c.identifier)\" offered \(c.snoozeSeconds.map { DurationText.exact(Double($0)) }.joined(separator: ", "))"
        } ?? "\"\(id)\" was delivered without a category"
        throw ChimeError(.snoozeNotOffered, "no snooze for \(DurationText.exact(Double(response.snoozeSeconds))): \(offered)",
                         field: "response.snooze_seconds")
      }
      acceptsText = false
    default:
      guard let found = category?.action(action) else {
        let offered = category.map { "category \"\($0.identifier)\" had no such action when \"\(id)\" was delivered" }
          ?? "\"\(id)\" was delivered without a category"
        throw ChimeError(.unknownAction, "no action \"\(action)\": \(offered)", field: "response.action_identifier")
      }
      acceptsText = found.textInput != nil
    }
    if acceptsText {
      guard !response.userText.isEmpty else {
        throw ChimeError(.textRequired, "action \"\(action)\" takes text: give the user's text", field: "response.user_text")
      }
    } else if !response.userText.isEmpty {
      throw ChimeError(.textNotAccepted, "action \"\(action)\" takes no text", field: "response.user_text")
    }
  }

  /// What an accepted response does, given the content extension's answer. Without an
  /// extension, every response (opened, dismissed, an action) removes the notification and
  /// reaches the app.
  ///
  /// A snooze (`chime.snooze`) is carried out by chimed unless the content extension handled
  /// it: without an extension, or when it answers dismiss-and-forward, the notification is
  /// snoozed (it leaves the delivered list and comes back after the duration) and the app gets
  /// the response event; when it answers dismiss or do-not-dismiss it took the action itself
  /// (as for any action): the notification is removed or stays, and nothing is snoozed.
  public static func decide(_ response: NotificationResponse, extension answer: ExtensionAnswer) -> ResponsePlan {
    if response.actionIdentifier == NotificationAction.snoozeIdentifier, answer == .noExtension || answer == .dismissAndForward,
       let duration = try? SnoozeDuration(seconds: response.snoozeSeconds) {
      return ResponsePlan(removesDelivered: false, forwardsToApp: true, snoozes: duration)
    }
    return switch answer {
    case .noExtension, .dismissAndForward: ResponsePlan(removesDelivered: true, forwardsToApp: true)
    case .dismiss: ResponsePlan(removesDelivered: true, forwardsToApp: false)
    case .doNotDismiss: ResponsePlan(removesDelivered: false, forwardsToApp: false)
    }
  }
}
