import ChimeCore
import ChimeStore
import Logging

/// Authorization, settings and badge. Decisions come from ChimeCore (`AuthorizationPolicy`,
/// `AppSettingsChange`, `DeliveryPermissions`) over the loop's copy of every app's record
/// (`AuthorizationBook`); the store records them, and the copy follows each commit. Loop
/// thread only.
final class AuthorizationService {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext
  /// Calls waiting for the user's answer to a prompt (policy `ask`).
  let waits: AuthorizationWaits
  var access: AuthorizationBook { context.access }

  init(context: ServiceContext, promptWaitMillis: Int64) {
    self.context = context
    waits = AuthorizationWaits(clock: context.clock, maxWaitMillis: promptWaitMillis)
  }

  /// `RequestAuthorization`: the first request records the policy's decision (allow what was
  /// asked, quietly when provisional; or deny); later ones answer the record unchanged, as do
  /// requests after the user allowed or denied the app. Answers whether the app may post.
  /// Under the policy `ask` an undecided app's request shows the user Chime's prompt (once,
  /// however many calls wait) and waits for the answer until `deadline` (at most
  /// `--authorization-prompt-wait`); unanswered by then it answers not determined.
  func requestAuthorization(app: String, options: AuthorizationOptions, deadline: Instant?, reply: @escaping Reply<AuthorizationResult>) {
    let recorded = access.authorization(of: app)
    let answer = { [self] in reply(.success(authorizationResult(app))) }
    guard recorded.status == .notDetermined else { return answer() }
    let decided = access.policy.decide(options, recorded: recorded)
    let asksUser = access.policy.asksUser(options)
    guard decided != recorded else {
      return asksUser ? askUser(app: app, asked: recorded.granted ?? options, deadline: deadline, done: answer) : answer()
    }
    context.writer.submit(SetAuthorization(app: app, status: decided.status, granted: decided.granted, firstDecision: true, at: context.clock.now())) { [self] result in
      switch result {
      case .failure(let error):
        reply(.failure(error))
      case .success(let stored):
        access.recorded(stored, app: app)
        context.logger.info("authorization decided", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        guard asksUser, stored.status == .notDetermined else { return answer() }
        askUser(app: app, asked: stored.granted ?? options, deadline: deadline, done: answer)
      }
    }
  }

  func authorizationResult(_ app: String) -> AuthorizationResult {
    AuthorizationResult(granted: access.permissions(of: app).mayPost, settings: access.settings(of: app))
  }

  /// `GetSettings`: answered from the loop's copy, which holds every commit so far.
  func getSettings(app: String, reply: @escaping Reply<NotificationSettings>) {
    reply(.success(access.settings(of: app)))
  }

  /// `SetBadgeCount`: sets the calling app's badge (0 clears it); a change is an event.
  ///
  /// Fails INVALID_ARGUMENT `BADGE_INPUT_INVALID` for a negative count and PERMISSION_DENIED
  /// `BADGE_NOT_ALLOWED` when the app's badge permission is not in effect.
  func setBadgeCount(app: String, count: Int, reply: @escaping Reply<Void>) {
    guard count >= 0 else {
      return reply(.failure(ChimeError(.badgeInputInvalid, "the badge count must be 0 or more (got \(count))", field: "count")))
    }
    guard access.permissions(of: app).effective.contains(.badge) else {
      return reply(.failure(ChimeError(.badgeNotAllowed, "\(app) may not change its badge: its badge setting is off or it is not allowed notifications")))
    }
    context.writer.submit(SetBadge(app: app, count: count, at: context.clock.now())) { [self] result in
      reply(result.map { outcome in context.published(outcome.events, files: [], app: app) })
    }
  }

  /// `SetAppSettings`: the user allows, denies or switches settings of `change.appID` (not the
  /// caller's app: only the daemon's own user connects, and this is that user's call). A change
  /// with nothing in it answers the settings as they are.
  ///
  /// Fails INVALID_ARGUMENT `INVALID_APP_ID` or `INVALID_APP_SETTINGS`.
  func setAppSettings(_ change: AppSettingsChange, reply: @escaping Reply<NotificationSettings>) {
    do {
      try change.validate()
    } catch {
      return reply(.failure(error))
    }
    let app = change.appID
    guard change.status != nil || !change.enable.isEmpty || !change.disable.isEmpty else {
      return reply(.success(access.settings(of: app)))
    }
    let changed = change.applied(to: access.authorization(of: app))
    let mutation = ChangeAuthorization(app: app, status: changed.status, granted: changed.granted, at: context.clock.now())
    context.writer.submit(mutation) { [self] result in
      reply(result.map { outcome in
        let stored = outcome.record
        access.recorded(stored, app: app)
        context.logger.info("settings changed by the user", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        context.published(outcome.events, files: [], app: app)
        if outcome.previous == .notDetermined, stored.status != .notDetermined { userDecided(app) }
        return access.settings(of: app)
      })
    }
  }
}
