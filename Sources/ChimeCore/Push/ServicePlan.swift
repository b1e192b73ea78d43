/// The decision for a pushed notification: which content is delivered, given whether it was
/// mutable, which service extension (if any) was asked and how that ended. Pure; the service
/// carries it out (attachments of the chosen content are then staged as at `Add`).
public enum ServicePlan {
  /// - Parameters:
  ///   - extensionIdentifier: the service extension asked, or nil when none was live.
  ///   - answer: how the ask ended (ignored when none was asked).
  ///   - bestAttempt: the answer came after the extension was told its time would expire.
  public static func decide(original: NotificationContent, mutable: Bool, extensionIdentifier: String?, answer: ServiceAnswer?,
                            bestAttempt: Bool) -> (content: NotificationContent, push: PushDelivery) {
    guard mutable else { return (original, PushDelivery(mutableContent: false)) }
    guard let extensionIdentifier, let answer else {
      return (original, PushDelivery(mutableContent: true, reason: Reason.serviceExtensionNotRunning.name,
                                     message: "the app has no live service extension"))
    }
    func originalBecause(_ reason: String, _ message: String) -> (NotificationContent, PushDelivery) {
      (original, PushDelivery(mutableContent: true, reason: reason, message: message, extensionIdentifier: extensionIdentifier))
    }
    switch answer {
    case .content(let content):
      do {
        try RequestValidator.validate(content, field: "content")
      } catch {
        return originalBecause(error.reason, "the extension's content was refused: \(error.message) (\(error.field))")
      }
      return (content, PushDelivery(mutableContent: true, source: bestAttempt ? .bestAttempt : .extension, extensionIdentifier: extensionIdentifier))
    case .failed(let message):
      return originalBecause(Reason.serviceExtensionFailed.name, message.isEmpty ? "the extension reported a failure" : message)
    case .timedOut:
      return originalBecause(Reason.serviceExtensionTimedOut.name, "the extension sent nothing by its deadline and grace period")
    case .disconnected:
      return originalBecause(Reason.serviceExtensionDisconnected.name, "the extension's connection ended before it answered")
    }
  }
}
