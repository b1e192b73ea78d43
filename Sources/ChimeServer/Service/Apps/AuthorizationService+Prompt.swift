import ChimeCore
import ChimeStore
import Logging

/// The "Allow notifications?" prompt (policy `ask`): posted as Chime's own delivered
/// notification (`AuthorizationPrompt`), so it survives a restart and is never posted twice at
/// once; answered by its own buttons on the desktop or by the user's `SetAppSettings`, which
/// ends the waiting calls. Loop thread only.
extension AuthorizationService {
  /// Waits for the user's answer about `app` (then runs `done`), posting its prompt unless a
  /// call of the app is already waiting (its prompt is up or being posted) or the prompt is
  /// still in Chime's delivered list (asked before, or before a restart).
  func askUser(app: String, asked: AuthorizationOptions, deadline: Instant?, done: @escaping () -> Void) {
    guard waits.mayWait else { return done() }
    let first = !waits.isWaiting(app)
    waits.wait(app: app, deadline: deadline, done: done)
    if first { postPrompt(app: app, asked: asked) }
  }

  /// Starts the waits' timer and shows the prompts a restart left unanswered again.
  func start() {
    waits.open(loop: context.loop)
    let own = AuthorizationPrompt.appID, presenter = context.presenter, logger = context.logger
    context.read({ (result: Result<[DeliveredNotification], ChimeError>) in
      switch result {
      case .success(let prompts):
        for prompt in prompts { presenter.present(prompt, app: own) }
      case .failure(let error):
        logger.warning("unanswered authorization prompts not shown again", metadata: ["error": "\(error)"])
      }
    }) { (database) throws(ChimeError) in
      try database.deliveredPage(app: own, page: PageRequest()).items
    }
  }

  /// Every wait ends now (chimed is stopping): the calls answer not determined.
  func stop() {
    waits.close()
  }

  /// A response to one of Chime's own notifications from the desktop: Allow or Don't Allow
  /// on an app's prompt is the user's answer, as `chime apps allow|deny` would be. Anything
  /// else (opening or dismissing it) answers nothing.
  func promptAnswered(_ response: NotificationResponse) {
    guard let (app, status) = AuthorizationPrompt.answer(to: response) else { return }
    setAppSettings(AppSettingsChange(appID: app, status: status)) { [logger = context.logger] result in
      if case .failure(let error) = result {
        logger.warning("the answer to an authorization prompt was not recorded", metadata: ["app": "\(app)", "error": "\(error)"])
      }
    }
  }

  /// `app` was allowed or denied by the user: its waiting calls answer now, and its prompt
  /// (when the answer came another way) leaves the desktop and Chime's delivered list.
  func userDecided(_ app: String) {
    waits.answer(app)
    let own = AuthorizationPrompt.appID
    let remove = Remove(from: .delivered, app: own, identifiers: [AuthorizationPrompt.identifier(for: app)], at: context.clock.now())
    context.writer.submit(remove) { [context] result in
      if case .success(let outcome) = result, !outcome.removed.isEmpty {
        context.published(outcome.events, files: outcome.discardedFiles, app: own)
      }
    }
  }

  /// Posts `app`'s prompt, named by its registered display name (else its id), listing
  /// `asked`. When it cannot be posted the waiting calls answer at once: nobody can answer.
  private func postPrompt(app: String, asked: AuthorizationOptions) {
    let database = context.database
    context.loop.runBlocking(catching: { () throws(ChimeError) in
      try database.app(app)?.displayName ?? ""
    }, then: { [self] (named: Result<String, ChimeError>) in
      let name = (try? named.get()).flatMap { $0.isEmpty ? nil : $0 } ?? app
      let now = context.clock.now(), own = AuthorizationPrompt.appID
      let request = AuthorizationPrompt.request(app: app, displayName: name, options: asked)
      let post = PostPrompt(app: own, category: AuthorizationPrompt.category,
                            delivered: DeliveredNotification(request: request, delivered: now, due: now), at: now)
      context.writer.submit(post) { [self] result in
        switch result {
        case .success(let outcome):
          guard let shown = outcome.delivered else { return }
          context.logger.info("asked the user to allow notifications", metadata: ["app": "\(app)"])
          context.published(outcome.events, files: outcome.discardedFiles, delivered: shown, app: own)
        case .failure(let error):
          context.logger.warning("the authorization prompt was not posted", metadata: ["app": "\(app)", "error": "\(error)"])
          waits.answer(app)
        }
      }
    })
  }
}
