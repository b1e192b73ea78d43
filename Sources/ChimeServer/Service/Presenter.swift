import ChimeCore
import Logging

/// Shows a delivered notification to the user. Called on the loop thread after the delivery is
/// committed; an implementation that does I/O must hand it off the loop. The notification's
/// `extensionAttributes` say how to lay out its content extension's view (nil: none was live).
protocol Presenter: AnyObject {
  func present(_ notification: DeliveredNotification, app: String)
  /// The app's delivered notifications `identifiers` left the delivered list (removed, or
  /// answered): whatever shows them goes.
  func withdraw(app: String, identifiers: [String])
  /// A response to the app's delivered notification `identifier` was recorded (its ring ends).
  func answered(app: String, identifier: String)
  /// chimed started serving: rings cut short by a restart resume.
  func start()
  /// The wall clock moved (or a test moved its clock): rings whose time is up end.
  func clockChanged()
  /// chimed is stopping: close connections and handles; nothing is presented afterwards.
  func stop()
  /// Do Not Disturb ended with notifications delivered quietly meanwhile: one popup says how
  /// many and from which apps. Chime's own, not any app's: nothing is stored or answered.
  func presentSummary(_ summary: DoNotDisturbSummary, at instant: Instant)
}

extension Presenter {
  func withdraw(app: String, identifiers: [String]) {}
  func answered(app: String, identifier: String) {}
  func start() {}
  func clockChanged() {}
  func stop() {}
}

/// Records deliveries in the log only (tests, headless machines).
final class LogPresenter: Presenter {
  private let logger: Logger
  init(logger: Logger) { self.logger = logger }

  func present(_ notification: DeliveredNotification, app: String) {
    var metadata: Logger.Metadata = [
      "app": "\(app)", "id": "\(notification.request.identifier)",
      "title": "\(notification.request.content.title)", "missed": "\(notification.missed)",
    ]
    if let attributes = notification.extensionAttributes {
      metadata["extension_ratio"] = "\(attributes.initialContentSizeRatio ?? 0)"
      metadata["media_button"] = "\(attributes.mediaButton.type.rawValue)"
    }
    logger.info("delivered", metadata: metadata)
  }

  func presentSummary(_ summary: DoNotDisturbSummary, at instant: Instant) {
    logger.info("do not disturb summary", metadata: ["text": "\(summary.text)"])
  }
}
