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
  private var access: AuthorizationBook { context.access }

  init(context: ServiceContext) {
    self.context = context
  }

  /// `RequestAuthorization`: the first request records the policy's decision (allow what was
  /// asked, quietly when provisional; or deny); later ones answer the record unchanged, as do
  /// requests after the user allowed or denied the app. Answers whether the app may post.
  func requestAuthorization(app: String, options: AuthorizationOptions, reply: @escaping Reply<AuthorizationResult>) {
    let recorded = access.authorization(of: app)
    guard recorded.status == .notDetermined else { return reply(.success(authorizationResult(app))) }
    let decided = access.policy.decide(options, recorded: recorded)
    context.writer.submit(SetAuthorization(app: app, status: decided.status, granted: decided.granted, firstDecision: true, at: context.clock.now())) { [self] result in
      reply(result.map { stored in
        access.recorded(stored, app: app)
        context.logger.info("authorization decided", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        return authorizationResult(app)
      })
    }
  }

  private func authorizationResult(_ app: String) -> AuthorizationResult {
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
    context.writer.submit(SetAuthorization(app: app, status: changed.status, granted: changed.granted, firstDecision: false, at: context.clock.now())) { [self] result in
      reply(result.map { stored in
        access.recorded(stored, app: app)
        context.logger.info("settings changed by the user", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        return access.settings(of: app)
      })
    }
  }
}
