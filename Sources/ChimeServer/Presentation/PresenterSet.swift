import ChimeCore
import ChimeStore
import Logging

/// Hands each committed delivery to the configured presenters and plays its sound, following
/// the app's settings (`PresentationDecision`): no alert permission, not shown; passive, no
/// sound. Every delivery is logged. A presenter's failure is logged and streamed to the app's
/// subscribers as a live `presentation-failed` event; the delivery stands. Loop thread only.
final class PresenterSet: Presenter {
  private let loop: EventLoop
  private let logger: Logger
  private let log: LogPresenter
  private let freedesktop: FreedesktopPresenter?
  private let command: CommandPresenter?
  private let sounds: SoundPlayer?
  /// Alarms whose sound repeats until answered, dismissed, removed or timed out.
  let ringer: Ringer
  private let clock: any WallClock
  private let thumbnails: any ThumbnailSource
  /// Where an app's registered name and desktop entry are read.
  private let database: ChimeDatabase
  /// Set once the service that holds this set exists: permissions, live events, responses.
  weak var host: (any PresentationHost)?

  /// `thumbnails` is used when the configuration names no source of its own.
  init(loop: EventLoop, database: ChimeDatabase, clock: any WallClock, configuration: PresentationConfiguration,
       thumbnails rendered: any ThumbnailSource, notificationServer: (any NotificationServerConnector)?, logger: Logger,
       monotonicMillis: (@Sendable () -> Int64)? = nil) {
    self.loop = loop
    self.clock = clock
    self.database = database
    self.logger = logger
    log = LogPresenter(logger: logger)
    thumbnails = configuration.thumbnails ?? rendered
    command = configuration.presenters.contains(.command) && !configuration.command.isEmpty
      ? CommandPresenter(loop: loop, command: configuration.command, timeoutMillis: configuration.commandTimeoutMillis, logger: logger)
      : nil
    sounds = configuration.playSounds ? SoundPlayer(loop: loop, configured: configuration.soundPlayer, logger: logger) : nil
    ringer = Ringer(loop: loop, clock: clock, sounds: sounds, logger: logger, monotonicMillis: monotonicMillis ?? Ringer.monotonicNow)
    var respond: ((String, NotificationResponse) -> Void)?
    if configuration.presenters.contains(.freedesktop) {
      freedesktop = FreedesktopPresenter(loop: loop, logger: logger, connector: notificationServer) { app, response in respond?(app, response) }
    } else {
      freedesktop = nil
    }
    respond = { [weak self] app, response in
      // The summary is Chime's own: a click on it answers nothing.
      guard app != DoNotDisturbSummary.appIdentifier else { return }
      self?.respond(app: app, response)
    }
    freedesktop?.onClosed = { [weak self] app, identifier in self?.ringer.end(app: app, identifier: identifier, .dismissed) }
    ringer.ended = { [weak self] key, deliveredAt, why in
      self?.host?.ringEnded(app: key.app, identifier: key.identifier, deliveredAt: deliveredAt, why: why)
    }
    ringer.failed = { [weak self] failure in self?.report(failure) }
    let names = configuration.presenters.map(\.rawValue)
    logger.info("presenters", metadata: ["presenters": "\(names.isEmpty ? "log only" : names.joined(separator: ","))"])
  }

  func present(_ delivered: DeliveredNotification, app: String) {
    present(delivered, app: app, resumed: false)
  }

  /// `resumed`: a ring a restart cut short, shown again on the desktop and ringing for the time
  /// left; the command presenter, which already ran for it, is not run again.
  private func present(_ delivered: DeliveredNotification, app: String, resumed: Bool) {
    if !resumed { log.present(delivered, app: app) }
    guard let host else { return }
    let decision = PresentationDecision.decide(delivered, allowed: host.deliveryPermissions(of: app))
    let identifier = delivered.request.identifier
    // A ring repeats the sound; with no sound to play (passive, no permission, quiet) it does not ring.
    let rings = !decision.sound.isSilent && RingRule.isRinging(delivered, now: clock.now())
    if rings { ringer.start(delivered, app: app) }
    let play = { [weak self] (sound: SoundChoice) in
      guard let self else { return }
      if rings { ringer.play(sound, for: delivered, app: app) } else { self.play(sound, app: app, identifier: identifier) }
    }
    if delivered.quiet {
      logger.debug("not shown and not heard: delivered under do not disturb", metadata: ["app": "\(app)", "id": "\(identifier)"])
    } else if !decision.show {
      logger.debug("not shown: alerts are off in the app's settings", metadata: ["app": "\(app)", "id": "\(identifier)"])
    }
    guard decision.show, command != nil || freedesktop != nil else {
      return play(decision.sound)
    }
    // Off the loop: the app's registered name and desktop entry (a row), and the image (a file).
    let database = self.database, thumbnails = self.thumbnails, wantsImage = freedesktop != nil
    loop.runBlocking({ () -> (AppLayout?, String?) in
      let layout = (try? database.app(app)) ?? nil
      return (layout, wantsImage ? thumbnails.thumbnailPath(for: delivered) : nil)
    }, then: { [weak self] (layout, thumbnail) in
      guard let self else { return }
      let who = DesktopNotificationPlan.App(id: app, displayName: layout?.displayName, desktopEntry: layout?.desktopEntry)
      if !resumed { command?.present(delivered, app: who, sound: decision.sound) { [weak self] failure in self?.report(failure) } }
      guard let freedesktop else { return play(decision.sound) }
      freedesktop.present(FreedesktopPresenter.Job(delivered: delivered, app: who, thumbnail: thumbnail, sound: decision.sound,
                                                   rings: rings) { result in
        switch result {
        case .success(let chimePlays): play(chimePlays)
        case .failure(let failure):
          self.report(failure)
          // Not shown, still heard.
          play(decision.sound)
        }
      })
    })
  }

  /// Shown as Chime's own notification (app `chime`, shown as "Chime"), replacing the previous
  /// summary if it is still on screen, with no sound; no permission applies (the user asked
  /// for it with the Do Not Disturb setting).
  func presentSummary(_ summary: DoNotDisturbSummary, at instant: Instant) {
    log.presentSummary(summary, at: instant)
    let delivered = summary.notification(at: instant)
    let who = DesktopNotificationPlan.App(id: DoNotDisturbSummary.appIdentifier, displayName: "Chime", desktopEntry: nil)
    command?.present(delivered, app: who, sound: .silent) { [weak self] failure in self?.report(failure) }
    freedesktop?.present(FreedesktopPresenter.Job(delivered: delivered, app: who, thumbnail: nil, sound: .silent) { [weak self] result in
      if case .failure(let failure) = result { self?.report(failure) }
    })
  }

  /// Whether there is a notification server to follow: the freedesktop presenter is on.
  var followsDesktop: Bool { freedesktop != nil }

  /// Follows the notification server's own Do Not Disturb on the presenter's session bus.
  func followDesktop(_ changed: @escaping (DesktopQuiet?) -> Void) {
    freedesktop?.followDesktop(changed)
  }

  func withdraw(app: String, identifiers: [String]) {
    for identifier in identifiers { ringer.end(app: app, identifier: identifier, .removed) }
    freedesktop?.withdraw(app: app, identifiers: identifiers)
  }

  func answered(app: String, identifier: String) {
    ringer.end(app: app, identifier: identifier, .answered)
  }

  func clockChanged() {
    ringer.check()
  }

  /// Rings a restart cut short (no end recorded, time not up) ring again for the time left, and
  /// are shown again on the desktop so they can be answered there. One that rang and ran out
  /// while chimed was stopped ends now as timed out, as it would have (its auto-snooze follows).
  func start() {
    let database = self.database, since = clock.now().adding(millis: -Int64(RingRule.maximumSeconds) * 1000)
    loop.runBlocking({ Result { () throws(ChimeError) in try database.ringCandidates(since: since) } }, then: { [weak self] found in
      guard let self else { return }
      switch found {
      case .success(let rings):
        let now = clock.now()
        for (app, delivered) in rings {
          if RingRule.isRinging(delivered, now: now) {
            logger.info("ring resumed after a restart", metadata: ["app": "\(app)", "id": "\(delivered.request.identifier)"])
            present(delivered, app: app, resumed: true)
          } else if ranOut(delivered, app: app, now: now) {
            logger.info("ring ran out while chimed was stopped", metadata: ["app": "\(app)", "id": "\(delivered.request.identifier)"])
            host?.ringEnded(app: app, identifier: delivered.request.identifier, deliveredAt: delivered.delivered, why: .timedOut)
          }
        }
      case .failure(let error):
        logger.warning("rings not resumed", metadata: ["error": "\(error)"])
      }
    })
  }

  /// Whether `delivered` (no ring end recorded) rang and its time is up: it was not quiet and
  /// had a sound to ring with (as `present` decides).
  private func ranOut(_ delivered: DeliveredNotification, app: String, now: Instant) -> Bool {
    guard let host, !delivered.quiet, let end = RingRule.endsAt(delivered), now >= end else { return false }
    return !PresentationDecision.decide(delivered, allowed: host.deliveryPermissions(of: app)).sound.isSilent
  }

  func stop() {
    ringer.stop()
    freedesktop?.stop()
    command?.stop()
    sounds?.stop()
  }

  private func play(_ sound: SoundChoice, app: String, identifier: String) {
    guard !sound.isSilent, let sounds else { return }
    sounds.play(sound, app: app, identifier: identifier) { [weak self] failure in self?.report(failure) }
  }

  private func report(_ failure: PresentationFailure) {
    guard failure.app != DoNotDisturbSummary.appIdentifier else {
      return logger.warning("the do not disturb summary was not shown", metadata: ["presenter": "\(failure.presenter)", "reason": "\(failure.reason)"])
    }
    logger.warning("presentation failed; the delivery stands", metadata: [
      "presenter": "\(failure.presenter)", "app": "\(failure.app)", "id": "\(failure.identifier)", "reason": "\(failure.reason)",
    ])
    host?.publishLive(.presentationFailed, identifier: failure.identifier, note: failure.description, app: failure.app)
  }

  /// A click on the desktop goes the way `chime respond` goes: content extensions first.
  private func respond(app: String, _ response: NotificationResponse) {
    host?.respondFromDesktop(app: app, response: response)
  }
}
