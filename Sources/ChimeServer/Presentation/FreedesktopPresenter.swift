import ChimeCore
import Logging

/// Shows deliveries through org.freedesktop.Notifications on the session bus, and carries the
/// user's clicks back as responses. The connection is made by the connector chimed hands in
/// (a `NotificationServerLink`: ChimeDBus's, on the loop's sd-bus driver): nothing here
/// blocks. Loop thread only.
///
/// - `GetCapabilities` is asked once per server: again when the name changes owner, and after
///   a call failed.
/// - An identifier delivered again while its notification is still on screen replaces it.
/// - `ActionInvoked` becomes a response naming the action (`default`: the default action; a
///   snooze button: `chime.snooze` with its duration, snoozed unless an extension handles it);
///   `NotificationClosed` by the user becomes the dismiss action where the category asks for it.
/// - A lost connection is logged; the next delivery connects again.
final class FreedesktopPresenter {
  /// What `present` asks for: the delivery, as the app is known, and what it plays.
  struct Job {
    var delivered: DeliveredNotification
    var app: DesktopNotificationPlan.App
    var thumbnail: String?
    var sound: SoundChoice
    /// Shown as an alarm (`DesktopNotificationPlan` rings): resident and critical, sound by Chime.
    var rings = false
    /// With what Chime must play itself (the server cannot), or why it was not shown.
    var done: (Result<SoundChoice, PresentationFailure>) -> Void
  }

  private struct Shown {
    var app: String
    var identifier: String
    var category: NotificationCategory?
  }

  private let loop: EventLoop
  private let logger: Logger
  /// Hands a response to the service, as `chime respond` does.
  private let respond: (_ app: String, _ response: NotificationResponse) -> Void
  private let connector: (any NotificationServerConnector)?
  private var bus: (any NotificationServerLink)?
  private var capabilities: Set<String>?
  private var askingCapabilities = false
  private var waiting: [Job] = []
  private var shownByKey: [String: UInt32] = [:]
  private var shownByID: [UInt32: Shown] = [:]
  private var stopped = false
  /// Told the server's own Do Not Disturb (`followDesktop`).
  private var desktopFollower: ((DesktopQuiet?) -> Void)?
  /// Connects again after the connection was lost (or never made), while following the
  /// desktop: after 5 s, doubling up to 5 min while it keeps failing.
  private var reconnect: LoopTimer?
  private var reconnectMillis = FreedesktopPresenter.firstReconnectMillis
  static let firstReconnectMillis: UInt64 = 5_000
  static let longestReconnectMillis: UInt64 = 300_000
  /// A notification left the screen without an action (closed by the user, expired, or closed
  /// by the server): the app and identifier it showed.
  var onClosed: ((_ app: String, _ identifier: String) -> Void)?

  /// `connector`: how to reach the notification server; nil: there is no way (every delivery
  /// is reported as not shown, "no session bus").
  init(loop: EventLoop, logger: Logger, connector: (any NotificationServerConnector)?,
       respond: @escaping (_ app: String, _ response: NotificationResponse) -> Void) {
    self.loop = loop
    self.connector = connector
    self.logger = logger
    self.respond = respond
  }

  /// The server's capabilities once known (tests and logs).
  var knownCapabilities: Set<String>? { capabilities }

  func present(_ job: Job) {
    guard !stopped else { return }
    guard connect() else {
      return job.done(.failure(failure(job, "no session bus")))
    }
    if let capabilities {
      send(job, capabilities: capabilities)
      return
    }
    waiting.append(job)
    askCapabilities()
  }

  /// Closes the notifications on screen for `identifiers` (removed from the delivered list).
  func withdraw(app: String, identifiers: [String]) {
    for identifier in identifiers {
      guard let id = shownByKey.removeValue(forKey: Self.key(app, identifier)) else { continue }
      shownByID[id] = nil
      bus?.closeNotification(id)
    }
  }

  /// Follows the notification server's own Do Not Disturb (paused, inhibited): `changed` is
  /// told its state once read and at each change, nil when there is no session bus. While
  /// following, a lost connection is made again every few seconds.
  func followDesktop(_ changed: @escaping (DesktopQuiet?) -> Void) {
    guard !stopped else { return }
    let retrying = desktopFollower != nil
    desktopFollower = changed
    guard connect(quietly: retrying) else {
      changed(nil)
      return retryLater()
    }
    reconnectMillis = Self.firstReconnectMillis
    bus?.followDesktopQuiet()
  }

  private func retryLater() {
    guard !stopped, desktopFollower != nil else { return }
    if reconnect == nil {
      reconnect = LoopTimer(loop: loop) { [unowned self] in
        if let changed = desktopFollower, bus?.isOpen != true { followDesktop(changed) }
      }
    }
    reconnect?.arm(afterMillis: reconnectMillis)
    reconnectMillis = min(reconnectMillis * 2, Self.longestReconnectMillis)
  }

  func stop() {
    reconnect?.close()
    reconnect = nil
    // It holds the service: dropped so a stopped daemon's parts are freed.
    desktopFollower = nil
    stopped = true
    bus?.close()
    bus = nil
    failWaiting("chimed is stopping")
  }

  // MARK: internals

  private static func key(_ app: String, _ identifier: String) -> String { app + "\u{0}" + identifier }

  private func failure(_ job: Job, _ reason: String) -> PresentationFailure {
    PresentationFailure(presenter: "freedesktop", app: job.app.id, identifier: job.delivered.request.identifier, reason: reason)
  }

  /// `quietly`: a failure is logged at debug level (the desktop watcher's retries).
  private func connect(quietly: Bool = false) -> Bool {
    if bus?.isOpen == true { return true }
    do {
      guard let connector else {
        throw NotificationServerError(description: "this chimed has no D-Bus transport to reach the session bus")
      }
      let bus = try connector.connect(loop: loop, logger: logger)
      bus.onDisconnect = { [unowned self] in lost() }
      bus.onSignal = { [unowned self] signal in received(signal) }
      self.bus = bus
      logger.info("connected to the session bus for notifications")
      if desktopFollower != nil { bus.followDesktopQuiet() }
      return true
    } catch {
      if quietly {
        logger.debug("still no session bus", metadata: ["error": "\(error)"])
      } else {
        logger.warning("cannot present on the desktop", metadata: ["error": "\(error)"])
      }
      return false
    }
  }

  private func askCapabilities() {
    guard !askingCapabilities, let bus else { return }
    askingCapabilities = true
    bus.capabilities { [weak self] result in
      guard let self else { return }
      askingCapabilities = false
      switch result {
      case .success(let names):
        let capabilities = Set(names)
        self.capabilities = capabilities
        logger.info("notification server capabilities", metadata: ["capabilities": "\(names.joined(separator: ","))"])
        let jobs = waiting
        waiting.removeAll()
        for job in jobs { send(job, capabilities: capabilities) }
      case .failure(let error):
        failWaiting("\(error)")
      }
    }
  }

  private func failWaiting(_ reason: String) {
    let jobs = waiting
    waiting.removeAll()
    for job in jobs { job.done(.failure(failure(job, reason))) }
  }

  private func send(_ job: Job, capabilities: Set<String>) {
    guard let bus else { return job.done(.failure(failure(job, "no session bus"))) }
    let identifier = job.delivered.request.identifier
    let key = Self.key(job.app.id, identifier)
    let plan = DesktopNotificationPlan.make(job.delivered, app: job.app, capabilities: capabilities, thumbnailPath: job.thumbnail,
                                            sound: job.sound, replacesID: shownByKey[key] ?? 0, rings: job.rings)
    bus.notify(plan) { [weak self] result in
      guard let self else { return }
      switch result {
      case .success(let id):
        if plan.replacesID != 0 && plan.replacesID != id { shownByID[plan.replacesID] = nil }
        shownByKey[key] = id
        shownByID[id] = Shown(app: job.app.id, identifier: identifier, category: job.delivered.category)
        logger.debug("shown on the desktop", metadata: ["app": "\(job.app.id)", "id": "\(identifier)", "server_id": "\(id)"])
        job.done(.success(plan.chimePlays))
      case .failure(let error):
        // The server may have gone; the next one is asked its capabilities afresh.
        self.capabilities = nil
        job.done(.failure(failure(job, "\(error)")))
      }
    }
  }

  private func received(_ signal: NotificationServerSignal) {
    switch signal {
    case .actionInvoked(let id, let key):
      // Forgotten first: the close that usually follows must not answer again.
      guard let shown = forget(id) else { return }
      // Answered: it leaves the screen (servers differ in whether they close it themselves).
      bus?.closeNotification(id)
      let response = DesktopNotificationPlan.response(forKey: key, notification: shown.identifier)
      logger.info("desktop action", metadata: ["app": "\(shown.app)", "id": "\(shown.identifier)", "action": "\(response.actionIdentifier)"])
      respond(shown.app, response)
    case .serverChanged(let owner):
      // Another server (or none): its capabilities are asked afresh, and the ids on screen
      // were the old one's.
      logger.info("notification server changed", metadata: ["owner": "\(owner.isEmpty ? "none" : owner)"])
      capabilities = nil
      shownByKey.removeAll()
      shownByID.removeAll()
    case .desktopQuiet(let state):
      desktopFollower?(state)
    case .closed(let id, let reason):
      guard let shown = forget(id) else { return }
      onClosed?(shown.app, shown.identifier)
      if let action = DesktopNotificationPlan.dismissResponse(reason: reason, category: shown.category) {
        respond(shown.app, NotificationResponse(notificationIdentifier: shown.identifier, actionIdentifier: action))
      }
    }
  }

  private func forget(_ id: UInt32) -> Shown? {
    guard let shown = shownByID.removeValue(forKey: id) else { return nil }
    if shownByKey[Self.key(shown.app, shown.identifier)] == id { shownByKey[Self.key(shown.app, shown.identifier)] = nil }
    return shown
  }

  private func lost() {
    bus = nil
    capabilities = nil
    askingCapabilities = false
    shownByKey.removeAll()
    shownByID.removeAll()
    failWaiting("the session bus connection was lost")
    if let desktopFollower {
      // Not known any more: counted as not paused until read again.
      desktopFollower(nil)
      retryLater()
    }
  }
}
