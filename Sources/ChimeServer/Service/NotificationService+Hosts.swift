import ChimeCore
import ChimeStore
import FoundationEssentials
import Logging

/// The service as the scheduler sees it (`SchedulerHost`).
extension NotificationService: SchedulerHost {
  var floatingZone: Zone { zones.zone }

  func stamped(_ fire: Fire) -> Fire {
    responses.withExtensionSnapshot(fire)
  }

  func fired(_ key: ScheduleKey, _ outcome: Fire.Outcome) {
    if case .fired(let events, let delivered, _, let files) = outcome {
      context.published(events, files: files, delivered: delivered, app: key.app)
    }
  }
}

/// The service as the presenters see it (`PresentationHost`).
extension NotificationService: PresentationHost {
  func deliveryPermissions(of app: String) -> AuthorizationOptions {
    context.access.permissions(of: app).effective
  }

  func publishLive(_ kind: Event.Kind, identifier: String, note: String, app: String) {
    context.hub.publish([Event(at: context.clock.now(), kind: kind, identifiers: [identifier], note: note)], app: app)
  }

  func respondFromDesktop(app: String, response: NotificationResponse) {
    responses.respond(app: app, response: response) { [logger = context.logger] result in
      if case .failure(let error) = result {
        logger.info("desktop response not recorded", metadata: [
          "app": "\(app)", "id": "\(response.notificationIdentifier)", "action": "\(response.actionIdentifier)", "error": "\(error)",
        ])
      }
    }
  }
}
