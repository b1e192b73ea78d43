import ChimeCore
import ChimeStore
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

  /// Every ring's end comes here once (`Ringer.end`); `.timedOut` is the one that means the
  /// alarm went unanswered, so what follows an unanswered alarm is decided here.
  func ringEnded(app: String, identifier: String, deliveredAt: Instant, why: RingEnd) {
    let mutation = EndRing(app: app, identifier: identifier, deliveredAt: deliveredAt, why: why, at: context.clock.now())
    context.writer.submit(mutation) { [context, snoozes] result in
      switch result {
      case .success(let outcome):
        context.published(outcome.events, files: [], app: app)
        // An alarm that ran out unanswered snoozes itself (Ring.autoSnooze), as the user's
        // Snooze would: it comes back, and rings again, after the duration.
        guard let seconds = outcome.autoSnoozeSeconds else { return }
        snoozes.snooze(app: app, SnoozeRequest(notificationIdentifier: identifier, durationSeconds: seconds)) { result in
          if case .failure(let error) = result {
            context.logger.info("auto-snooze not done", metadata: ["app": "\(app)", "id": "\(identifier)", "error": "\(error)"])
          }
        }
      case .failure(let error):
        context.logger.warning("ring end not recorded", metadata: ["app": "\(app)", "id": "\(identifier)", "error": "\(error)"])
      }
    }
  }

  /// A click on one of Chime's own prompts (Allow, Don't Allow) is also the user's answer
  /// about the app it asks for, once the response is recorded.
  func respondFromDesktop(app: String, response: NotificationResponse) {
    responses.respond(app: app, response: response) { [logger = context.logger, authorization] result in
      if case .success = result, app == AuthorizationPrompt.appID { authorization.promptAnswered(response) }
      if case .failure(let error) = result {
        logger.info("desktop response not recorded", metadata: [
          "app": "\(app)", "id": "\(response.notificationIdentifier)", "action": "\(response.actionIdentifier)", "error": "\(error)",
        ])
      }
    }
  }
}
