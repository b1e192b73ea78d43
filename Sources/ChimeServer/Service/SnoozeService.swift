import ChimeCore
import ChimeStore

/// `Snooze`: the app's delivered notification leaves the screen and the delivered list, and the
/// scheduler delivers it again after the duration (the store keeps it and its files meanwhile,
/// across restarts). A repeating request's next fire does not move. Loop thread only.
final class SnoozeService {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext

  init(context: ServiceContext) {
    self.context = context
  }

  /// Snoozes `request.notificationIdentifier` for `request.durationSeconds`; answers its snoozed
  /// entry as GetPending lists it. Also for chimed's own callers (an alarm's auto-snooze).
  ///
  /// Fails with INVALID_ARGUMENT `INVALID_SNOOZE_DURATION` (outside 1 minute ... 1 week) or
  /// `INVALID_IDENTIFIER`; NOT_FOUND `NOTIFICATION_NOT_DELIVERED`.
  func snooze(app: String, _ request: SnoozeRequest, reply: @escaping Reply<PendingRequest>) {
    let duration: SnoozeDuration
    do {
      try RequestValidator.validateIdentifier(request.notificationIdentifier, field: "notification_identifier")
      duration = try SnoozeDuration(seconds: request.durationSeconds)
    } catch {
      return reply(.failure(error))
    }
    let mutation = SnoozeDelivered(app: app, identifier: request.notificationIdentifier, duration: duration, at: context.clock.now())
    context.writer.submit(mutation) { [context] result in
      reply(result.map { outcome in
        context.published(outcome.events, files: outcome.discardedFiles, app: app)
        context.scheduler.scheduled(outcome.key)
        return outcome.snoozed
      })
    }
  }
}
