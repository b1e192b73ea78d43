import ChimeCore
import ChimeStore
import Logging

/// Authorization, settings and badge. Decisions come from ChimeCore (`AuthorizationPolicy`,
/// `AppSettingsChange`, `DeliveryPermissions`) over the loop's copy of every app's record
/// (`authorizations`); the store records them, and the copy follows each commit.
extension NotificationService {
  /// `app`'s record as committed (`.none` when nothing is recorded).
  func authorization(of app: String) -> AppAuthorization {
    authorizations[app] ?? .none
  }

  /// What `app` may do now.
  func permissions(of app: String) -> DeliveryPermissions {
    DeliveryPermissions(authorization(of: app), policy: policy)
  }

  /// `app`'s status, effective settings and badge count.
  func settings(of app: String) -> NotificationSettings {
    NotificationSettings(authorization(of: app), policy: policy)
  }

  /// `RequestAuthorization`: the first request records the policy's decision (allow what was
  /// asked, quietly when provisional; or deny); later ones answer the record unchanged, as do
  /// requests after the user allowed or denied the app. Answers whether the app may post.
  func requestAuthorization(app: String, options: AuthorizationOptions, reply: @escaping Reply<AuthorizationResult>) {
    let recorded = authorization(of: app)
    guard recorded.status == .notDetermined else { return reply(.success(authorizationResult(app))) }
    let decided = policy.decide(options, recorded: recorded)
    writer.submit(SetAuthorization(app: app, status: decided.status, granted: decided.granted, firstDecision: true, at: clock.now())) { [self] result in
      reply(result.map { stored in
        authorizations[app] = stored
        logger.info("authorization decided", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        return authorizationResult(app)
      })
    }
  }

  private func authorizationResult(_ app: String) -> AuthorizationResult {
    AuthorizationResult(granted: permissions(of: app).mayPost, settings: settings(of: app))
  }

  /// `GetSettings`: answered from the loop's copy, which holds every commit so far.
  func getSettings(app: String, reply: @escaping Reply<NotificationSettings>) {
    reply(.success(settings(of: app)))
  }

  /// `SetBadgeCount`: sets the calling app's badge (0 clears it); a change is an event.
  ///
  /// Fails INVALID_ARGUMENT `BADGE_INPUT_INVALID` for a negative count and PERMISSION_DENIED
  /// `BADGE_NOT_ALLOWED` when the app's badge permission is not in effect.
  func setBadgeCount(app: String, count: Int, reply: @escaping Reply<Void>) {
    guard count >= 0 else {
      return reply(.failure(ChimeError(.badgeInputInvalid, "the badge count must be 0 or more (got \(count))", field: "count")))
    }
    guard permissions(of: app).effective.contains(.badge) else {
      return reply(.failure(ChimeError(.badgeNotAllowed, "\(app) may not change its badge: its badge setting is off or it is not allowed notifications")))
    }
    writer.submit(SetBadge(app: app, count: count, at: clock.now())) { [self] result in
      reply(result.map { outcome in published(outcome.events, files: [], app: app) })
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
      return reply(.success(settings(of: app)))
    }
    let changed = change.applied(to: authorization(of: app))
    writer.submit(SetAuthorization(app: app, status: changed.status, granted: changed.granted, firstDecision: false, at: clock.now())) { [self] result in
      reply(result.map { stored in
        authorizations[app] = stored
        logger.info("settings changed by the user", metadata: ["app": "\(app)", "status": "\(stored.status.name)"])
        return settings(of: app)
      })
    }
  }
}
