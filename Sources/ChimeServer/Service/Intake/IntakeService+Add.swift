import ChimeCore
import ChimeStore

/// `Add`: a request checked, its first fire planned, its files prepared, then committed as a
/// pending request (or delivered at once without a trigger).
extension IntakeService {
  func add(app: String, request given: NotificationRequest, reply: @escaping Reply<AddResult>) {
    let request = RingRule.withSound(given)
    do {
      try RequestValidator.validate(request)
    } catch {
      return reply(.failure(error))
    }
    if let refusal = context.access.refusal(app: app) {
      return reply(.failure(refusal))
    }
    let now = context.clock.now()
    let first: Instant
    do {
      first = try TriggerPlanner.firstFire(of: request.trigger, added: now, zone: zones.zone)
    } catch {
      return reply(.failure(error))
    }
    prepareFiles(app: app, request: request, staging: .allOrNothing,
                 refusal: "chimed is shutting down; the request was not scheduled and its files are untouched",
                 failed: { reply(.failure($0)) }) { [self] prepared, answered in
      commitAdd(app: app, prepared: prepared, first: first, now: now) { answer in
        reply(answer)
        answered()
      }
    }
  }

  /// The completions capture what the answer needs (the pending request, the staged files, the
  /// schedule key), not the prepared request: each request captured or copied is a copy of
  /// every one of its fields (bench/NOTES.md).
  private func commitAdd(app: String, prepared: PreparedRequest, first: Instant, now: Instant, reply: @escaping Reply<AddResult>) {
    let staged = prepared.staged
    let pending = PendingRequest(request: prepared.request, nextFire: first, added: now, sound: prepared.sound)
    if pending.request.trigger == nil {
      context.writer.submit(immediateDelivery(app: app, prepared: prepared, at: now)) { [self] result in
        finishAdd(result, staged: staged, reply: reply) { outcome in
          context.published(outcome.events, files: outcome.discardedFiles, delivered: outcome.delivered, app: app)
          return AddResult(pending: pending, replaced: outcome.replaced, delivered: outcome.delivered)
        }
      }
    } else {
      let add = AddPending(app: app, pending: pending, at: now, limit: maxPendingPerApp)
      let packed = add.packed
      let key = ScheduleKey(due: first, app: app, identifier: pending.request.identifier)
      context.writer.submit(add) { [self] result in
        finishAdd(result, staged: staged, reply: reply) { outcome in
          context.published(outcome.events, files: outcome.discardedFiles, app: app)
          context.scheduler.scheduled(key)
          // The reply carries the request as the store packed it.
          var answer = AddResult(pending: pending, replaced: outcome.replaced)
          answer.packedPending = packed
          return answer
        }
      }
    }
  }

  /// Answers an add once its commit is known, after its staged files are settled (at once when
  /// it staged none).
  private func finishAdd<Outcome>(_ result: Result<Outcome, ChimeError>, staged: [StagedAttachment], reply: @escaping Reply<AddResult>,
                                  committed: (Outcome) -> AddResult) {
    switch result {
    case .failure(let error):
      settleFiles(staged, committed: false) { reply(.failure(error)) }
    case .success(let outcome):
      guard !staged.isEmpty else { return reply(.success(committed(outcome))) }
      let answer = committed(outcome)
      settleFiles(staged, committed: true) { reply(.success(answer)) }
    }
  }
}
