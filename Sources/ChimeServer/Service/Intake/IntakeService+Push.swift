import ChimeCore
import ChimeStore
import ChimeSystem

/// Pushed notifications: an APNs-style payload delivered at once, with `Add`'s content rules,
/// sound resolution and authorization; a mutable one goes to the app's live service extension
/// first, within a deadline and a grace period on the service's clock. The user always gets
/// the notification: the delivered record's `push` (and the `delivered` event's note) says
/// which content it carries and why.
extension IntakeService {
  /// Parses and checks `submission`, asks the service extension when the payload is mutable
  /// and one is live, then delivers; answers with what was delivered.
  ///
  /// Fails with INVALID_ARGUMENT `PUSH_PAYLOAD_TOO_LARGE`, `INVALID_PUSH_PAYLOAD`,
  /// `UNKNOWN_INTERRUPTION_LEVEL`, `Add`'s content reasons (`NOTIFICATION_INVALID_NO_CONTENT`,
  /// `INVALID_BADGE`, ...), PERMISSION_DENIED `NOTIFICATIONS_NOT_ALLOWED`, or a store error.
  func push(app: String, submission: PushSubmission, reply: @escaping Reply<PushResult>) {
    let payload: PushPayload
    let request: NotificationRequest
    do throws(ChimeError) {
      payload = try PushPayload.parse(submission.payload, maxBytes: pushLimits.payloadMaxBytes)
      let identifier = submission.identifier.isEmpty ? RandomUUID.make() : submission.identifier
      try RequestValidator.validateIdentifier(identifier, field: "identifier")
      request = NotificationRequest(identifier: identifier, content: payload.content)
      try RequestValidator.validate(request.content, field: "aps")
    } catch {
      return reply(.failure(error))
    }
    if let refusal = context.access.refusal(app: app) {
      return reply(.failure(refusal))
    }
    let mutable = payload.mutableContent
    // Not once chimed is stopping (the deadline timer is gone): nothing would end the wait.
    let extensions = context.extensions
    guard mutable, extensions.mayWait, let extensionIdentifier = extensions.hub.serviceExtension(app: app) else {
      let (content, push) = ServicePlan.decide(original: request.content, mutable: mutable, extensionIdentifier: nil, answer: nil, bestAttempt: false)
      return deliverPushed(app: app, request: request, content: content, push: push, reply: reply)
    }
    let deadline = context.clock.now().adding(millis: pushLimits.timeoutMillis)
    let asked = extensions.hub.askService(app: app, request: request, deadline: deadline, graceMillis: pushLimits.graceMillis) { [self] answer, bestAttempt in
      let (content, push) = ServicePlan.decide(original: request.content, mutable: true, extensionIdentifier: extensionIdentifier,
                                               answer: answer, bestAttempt: bestAttempt)
      deliverPushed(app: app, request: request, content: content, push: push, reply: reply)
    }
    if asked == nil {
      let (content, push) = ServicePlan.decide(original: request.content, mutable: true, extensionIdentifier: nil, answer: nil, bestAttempt: false)
      deliverPushed(app: app, request: request, content: content, push: push, reply: reply)
    } else {
      extensions.armDeadline()
    }
  }

  /// A service extension's answer to the pushed notification it was sent as request `id`.
  ///
  /// - Throws: NOT_FOUND `SERVICE_REQUEST_NOT_AWAITED`.
  func answerService(app: String, extensionIdentifier: String, id: UInt64, answer: ServiceAnswer) throws(ChimeError) {
    try context.extensions.hub.answerService(app: app, extensionIdentifier: extensionIdentifier, id: id, answer)
    context.extensions.armDeadline()
  }

  /// Resolves the sound and stages the attachments of the chosen content (each file alone: a
  /// refused one is left out and recorded), then delivers it.
  private func deliverPushed(app: String, request: NotificationRequest, content: NotificationContent, push: PushDelivery,
                             reply: @escaping Reply<PushResult>) {
    var chosen = request
    chosen.content = content
    prepareFiles(app: app, request: chosen, staging: .eachAlone,
                 refusal: "chimed is shutting down; the push was not delivered and its files are untouched",
                 failed: { reply(.failure($0)) }) { [self] prepared, answered in
      var push = push
      push.refusedAttachments += prepared.refused
      commitPushed(app: app, prepared: prepared, push: push) { answer in
        reply(answer)
        answered()
      }
    }
  }

  /// Commits the delivery. A commit refused for the app's attachment quota (another delivery
  /// took the room since the look-ahead) is retried without the attachments, which are then
  /// recorded as refused: the notification is never lost to its attachments.
  private func commitPushed(app: String, prepared: PreparedRequest, push: PushDelivery, reply: @escaping Reply<PushResult>) {
    context.writer.submit(immediateDelivery(app: app, prepared: prepared, at: context.clock.now(), push: push)) { [self] result in
      switch result {
      case .failure(let error) where error.has(.attachmentQuotaExceeded) && !prepared.staged.isEmpty:
        var without = prepared
        without.staged = []
        without.request.content.attachments = []
        var push = push
        push.refusedAttachments += prepared.staged.map {
          RefusedAttachment(identifier: $0.attachment.identifier, path: $0.source, reason: error.reason, message: error.message, field: "content.attachments")
        }
        settleFiles(of: prepared, committed: false) { [self] in
          commitPushed(app: app, prepared: without, push: push, reply: reply)
        }
      case .failure(let error):
        settleFiles(of: prepared, committed: false) { reply(.failure(error)) }
      case .success(let outcome):
        context.published(outcome.events, files: outcome.discardedFiles, delivered: outcome.delivered, app: app)
        let answer = PushResult(delivered: outcome.delivered, replaced: outcome.replaced)
        settleFiles(of: prepared, committed: true) { reply(.success(answer)) }
      }
    }
  }
}
