import ChimeCore
import ChimeStore

/// Responses: the user opened, dismissed or answered a delivered notification, routed through
/// the app's content extensions first; the extensions' registrations, answers and media
/// buttons. Loop thread only.
final class ResponseService {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext

  init(context: ServiceContext) {
    self.context = context
  }

  /// Checks `response` against the app's delivered notification and the category snapshot it
  /// was delivered with, asks the category's first content extension (keep, dismiss, or
  /// dismiss and forward; `.noExtension` when there is none or it does not answer by the
  /// deadline), decides what the response does (`ResponsePlan`) and commits it: the `response`
  /// event for the app's subscribers and the notification's removal from the delivered list.
  ///
  /// An empty action identifier means the default action (the notification was opened). A
  /// snooze button (`chime.snooze`) snoozes it unless the extension handled it (`ResponsePlan`).
  /// Fails with NOT_FOUND `NOTIFICATION_NOT_DELIVERED`, INVALID_ARGUMENT `UNKNOWN_ACTION`,
  /// `TEXT_NOT_ACCEPTED`, `TEXT_REQUIRED`, `INVALID_IDENTIFIER`, `FIELD_TOO_LONG`,
  /// `INVALID_SNOOZE_DURATION`, `SNOOZE_NOT_OFFERED`, or FAILED_PRECONDITION `DISMISS_NOT_ENABLED`.
  func respond(app: String, response: NotificationResponse, reply: @escaping Reply<RespondResult>) {
    var response = response
    if response.actionIdentifier.isEmpty { response.actionIdentifier = NotificationAction.defaultIdentifier }
    response.at = context.clock.now()
    do {
      try ResponsePlan.validate(response)
    } catch {
      return reply(.failure(error))
    }
    let database = context.database, identifier = response.notificationIdentifier
    context.loop.runBlocking(catching: { () throws(ChimeError) in
      try database.delivered(app: app, identifier: identifier)
    }, then: { [self] (read: Result<DeliveredNotification?, ChimeError>) in
      let checked = Result { () throws(ChimeError) -> DeliveredNotification? in
        let found = try read.get()
        try ResponsePlan.check(response, delivered: found)
        return found
      }
      // check throws NOTIFICATION_NOT_DELIVERED for nil.
      guard case .success(let found?) = checked else {
        if case .failure(let error) = checked { reply(.failure(error)) }
        return
      }
      let delivered = found
      // The first content extension of the category is asked before anything is recorded;
      // without one (or without an answer in time) the response goes ahead as if there were none.
      let category = delivered.request.content.categoryIdentifier
      let extensions = context.extensions
      let routed = extensions.hub.routes(app: app, category: category)
      var asked: String?
      let commit = { [self] (answer: ExtensionAnswer) in
        let plan = ResponsePlan.decide(response, extension: answer)
        context.writer.submit(RecordResponse(app: app, response: response, checked: delivered, plan: plan)) { [self] result in
          reply(result.map { outcome in
            // Before the removal's withdraw: the ring ends as answered, not removed.
            context.presenter.answered(app: app, identifier: identifier)
            context.published(outcome.events, files: outcome.discardedFiles, app: app)
            if let key = outcome.snoozedKey { context.scheduler.scheduled(key) }
            extensions.hub.responded(response, category: category, app: app, except: asked)
            return RespondResult(routedTo: routed, removed: outcome.removed)
          })
        }
      }
      let deadline = response.at.adding(millis: extensions.answerTimeoutMillis)
      // Not once chimed is stopping (the deadline timer is gone): nothing would end the wait.
      if extensions.mayWait {
        asked = extensions.hub.ask(app: app, category: category, response: response, deadline: deadline, resolve: commit)
      }
      if asked == nil {
        commit(.noExtension)
      } else {
        extensions.armDeadline()
      }
    })
  }
}
