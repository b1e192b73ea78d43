import ChimeCore
import Logging

/// Shows a delivered notification to the user. Called on the loop thread after the delivery is
/// committed; an implementation that does I/O must hand it off the loop.
protocol Presenter: AnyObject {
  func present(_ notification: DeliveredNotification, app: String)
}

/// Records deliveries in the log only (tests, headless machines).
final class LogPresenter: Presenter {
  private let logger: Logger
  init(logger: Logger) { self.logger = logger }

  func present(_ notification: DeliveredNotification, app: String) {
    logger.info("delivered", metadata: [
      "app": "\(app)", "id": "\(notification.request.identifier)",
      "title": "\(notification.request.content.title)", "missed": "\(notification.missed)",
    ])
  }
}
