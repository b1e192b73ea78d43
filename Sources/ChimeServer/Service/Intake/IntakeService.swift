import ChimeConfig
import ChimeCore
import ChimeStore

/// One intake for every way a notification comes in (`Add`, `Push`, a service extension's
/// answer): the request is checked, its files are prepared — a named sound looked up,
/// attachments inspected and staged — off the loop when it has any, the caller commits and
/// answers, and the staged files are settled once the commit is known. An immediate delivery's
/// record is built here too, so every way in shapes it by the app's permissions the same way.
/// Loop thread only.
final class IntakeService {
  typealias Reply<T> = ServiceContext.Reply<T>

  /// Pushed notifications: payload limit, service-extension deadline and grace.
  struct PushLimits {
    var payloadMaxBytes: Int
    var timeoutMillis: Int64
    var graceMillis: Int64
  }

  /// How attachments are staged: all or nothing (`Add`: one bad file refuses the request), or
  /// each alone (`Push`: a refused file is left out and recorded, the rest is delivered).
  enum AttachmentStaging {
    case allOrNothing
    case eachAlone
  }

  let context: ServiceContext
  let zones: ZonePlanner
  /// Where default app layouts live (`<apps>/<id>/container`, `.../bundle`).
  let appsDirectory: String
  /// `chimed --max-pending-per-app`.
  let maxPendingPerApp: Int
  let pushLimits: PushLimits
  /// See `ServerConfiguration.beforeStaging`.
  private let beforeStaging: (@Sendable (_ app: String, _ identifier: String) -> Void)?
  /// Requests that looked at files (sound lookup, attachment staging) and have not answered
  /// yet: preparing, committing, or finishing their staged files. Shutdown waits for them.
  private(set) var preparing = 0
  private var preparedWaiters: [() -> Void] = []

  init(context: ServiceContext, zones: ZonePlanner, configuration: ServerConfiguration) {
    self.context = context
    self.zones = zones
    appsDirectory = configuration.paths.appsDirectory
    maxPendingPerApp = configuration.limits.maxPendingPerApp
    pushLimits = PushLimits(payloadMaxBytes: configuration.limits.pushPayloadMaxBytes, timeoutMillis: configuration.limits.serviceExtensionTimeoutMillis,
                            graceMillis: configuration.limits.serviceExtensionGraceMillis)
    beforeStaging = configuration.hooks.beforeStaging
  }

  /// Runs `action` once no request that went through the file path is still unanswered.
  func whenPrepared(_ action: @escaping () -> Void) {
    if preparing == 0 { action() } else { preparedWaiters.append(action) }
  }

  private func preparationEnded() {
    preparing -= 1
    guard preparing == 0 else { return }
    let waiters = preparedWaiters
    preparedWaiters.removeAll()
    for waiter in waiters { waiter() }
  }

  /// Prepares `request`'s files and calls `commit` on the loop with the result. With nothing to
  /// look at (no attachment, no named sound) that happens at once; otherwise the files are
  /// prepared in the file lane (attachments) or on the work pool (a sound alone), and `commit`
  /// gets an `answered` to call once it has answered: shutdown waits for that, so a committed
  /// request whose moved files are leaving their source is not cut off. A request still
  /// waiting for the file lane when chimed stops is refused with `refusal` (UNAVAILABLE
  /// `SHUTTING_DOWN`), its files untouched; a failed preparation goes to `failed`.
  func prepareFiles(app: String, request: consuming NotificationRequest, staging: AttachmentStaging, refusal: String,
                    failed: @escaping (ChimeError) -> Void,
                    commit: @escaping (_ prepared: PreparedRequest, _ answered: @escaping () -> Void) -> Void) {
    let criticalAllowed = context.access.permissions(of: app).effective.contains(.criticalAlert)
    guard Self.needsFiles(request.content) else {
      // No named sound: the layout is never read, so its paths are not even built (an
      // autoclosure; building them was 3.2k instructions of every add).
      let sound = SoundResolver.resolve(request.content.sound, layout: AppLayout.defaults(for: app, appsDirectory: appsDirectory),
                                        criticalAllowed: criticalAllowed)
      // The request moves into the prepared one: the caller hands it over (`consuming`).
      return commit(PreparedRequest(request: request, sound: sound), {})
    }
    // Captured by the work below, which runs on the pool.
    let request = request
    let database = context.database, attachments = context.attachments, appsDirectory = self.appsDirectory
    let beforeStaging = request.content.attachments.isEmpty ? nil : self.beforeStaging
    let work = { @Sendable () -> Result<PreparedRequest, ChimeError> in
      beforeStaging?(app, request.identifier)
      return Result { () throws(ChimeError) in
        switch staging {
        case .allOrNothing:
          try PreparedRequest.prepare(request, app: app, database: database, attachments: attachments, appsDirectory: appsDirectory,
                                      criticalAllowed: criticalAllowed)
        case .eachAlone:
          try PushPreparation.prepare(request, app: app, database: database, attachments: attachments, appsDirectory: appsDirectory,
                                      criticalAllowed: criticalAllowed)
        }
      }
    }
    preparing += 1
    let then = { [self] (result: Result<PreparedRequest, ChimeError>) in
      switch result {
      case .success(let prepared):
        commit(prepared) { [self] in preparationEnded() }
      case .failure(let error):
        failed(error)
        preparationEnded()
      }
    }
    if request.content.attachments.isEmpty {
      context.loop.runBlocking(work, then: then)
    } else {
      context.fileLane.run(work, then: then, refuse: { [self] in
        failed(ChimeError(.shuttingDown, refusal))
        preparationEnded()
      })
    }
  }

  /// True when preparing `content` touches files: attachments to stage, or a named sound to
  /// look up in the app's layout.
  static func needsFiles(_ content: NotificationContent) -> Bool {
    if !content.attachments.isEmpty { return true }
    guard let kind = content.sound?.kind else { return false }
    return kind == .named || kind == .criticalNamed
  }

  /// The commit of `prepared` delivered at once: its level, sound and badge as the app's
  /// permissions allow now (`DeliveryShape`), the category's extension attributes, and the
  /// push record when it was pushed; the delivered event's note says what was changed.
  func immediateDelivery(app: String, prepared: PreparedRequest, at now: Instant, push: PushDelivery? = nil) -> DeliverNow {
    let request = prepared.request
    let shape = DeliveryShape.decide(requested: request.content.sound, resolved: prepared.sound,
                                     badge: request.content.badge.map { Int(clamping: $0) }, level: request.content.interruptionLevel,
                                     allowed: context.access.permissions(of: app).effective,
                                     doNotDisturb: context.doNotDisturb.source(at: now, zone: zones.zone))
    var shown = request
    shown.content.interruptionLevel = shape.level
    var delivered = DeliveredNotification(request: shown, delivered: now, due: now, sound: shape.sound,
                                          extensionAttributes: context.extensions.hub.attributes(app: app, category: shown.content.categoryIdentifier))
    delivered.push = push
    delivered.quiet = shape.quiet
    let note = [push?.note ?? "", shape.note].filter { !$0.isEmpty }.joined(separator: "; ")
    return DeliverNow(app: app, delivered: delivered, at: now, badge: shape.badge, note: note)
  }

  /// `settleFiles` of the files `prepared` staged.
  func settleFiles(of prepared: PreparedRequest, committed: Bool, then: @escaping () -> Void) {
    settleFiles(prepared.staged, committed: committed, then: then)
  }

  /// Once a commit is known: a committed request's moved attachments leave their source, a
  /// failed one's staged files are given back; then `then` on the loop (at once when nothing
  /// was staged, the common case).
  func settleFiles(_ staged: [StagedAttachment], committed: Bool, then: @escaping () -> Void) {
    guard !staged.isEmpty else { return then() }
    let attachments = context.attachments
    context.fileLane.runToEnd({ committed ? attachments.finish(staged) : attachments.abandon(staged) }, then: { _ in then() })
  }
}
