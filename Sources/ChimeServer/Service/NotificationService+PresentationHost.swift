import ChimeCore
import Logging

/// The service as the presenters see it (`PresentationHost`).
extension NotificationService: PresentationHost {
  func deliveryPermissions(of app: String) -> AuthorizationOptions {
    permissions(of: app).effective
  }

  func publishLive(_ kind: Event.Kind, identifier: String, note: String, app: String) {
    hub.publish([Event(at: clock.now(), kind: kind, identifiers: [identifier], note: note)], app: app)
  }

  func respondFromDesktop(app: String, response: NotificationResponse) {
    respond(app: app, response: response) { [logger] result in
      if case .failure(let error) = result {
        logger.info("desktop response not recorded", metadata: [
          "app": "\(app)", "id": "\(response.notificationIdentifier)", "action": "\(response.actionIdentifier)", "error": "\(error)",
        ])
      }
    }
  }
}
