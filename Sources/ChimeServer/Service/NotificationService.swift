import ChimeCore
import ChimeStore
import Foundation
import Logging

/// The NotificationCenter calls, on ChimeCore values. Loop thread only; every answer comes
/// through a completion on the loop thread. No socket or wire format here, so the calls can be
/// driven in-process as well as through the daemon.
final class NotificationService {
  typealias Reply<T> = (Result<T, ChimeError>) -> Void

  let loop: EventLoop
  let database: ChimeDatabase
  let writer: GroupCommitWriter
  let clock: any WallClock
  let logger: Logger
  let hub: SubscriptionHub
  /// Live content-extension registrations and the responses waiting for their answers.
  let extensions = ExtensionHub()
  /// Fires at the earliest deadline of a response waiting for an extension.
  var extensionTimer: LoopTimer?
  let extensionAnswerTimeoutMillis: Int64
  /// Pushed notifications: payload limit, service-extension deadline and grace.
  let pushLimits: (payloadMaxBytes: Int, timeoutMillis: Int64, graceMillis: Int64)
  let scheduler: Scheduler
  private let presenter: any Presenter
  let zoneProvider: @Sendable () -> TimeZone
  /// The zone floating calendar triggers follow now.
  var zone: TimeZone
  /// Bumped by every zone change: a re-plan still walking batches for an older zone stops.
  var replanGeneration = 0
  let attachments: AttachmentStore
  /// Attachment staging, a few at a time (see FileLane).
  let fileLane: FileLane
  /// Adds that looked at files (sound lookup, attachment staging) and have not answered yet:
  /// preparing, committing, or finishing their staged files. Shutdown waits for them.
  var preparing = 0
  private var preparedWaiters: [() -> Void] = []
  /// See `ServerConfiguration.beforeStaging`.
  let beforeStaging: (@Sendable (_ app: String, _ identifier: String) -> Void)?
  /// Where default app layouts live (`<apps>/<id>/container`, `.../bundle`).
  let appsDirectory: String
  /// `chimed --authorization`.
  let policy: AuthorizationPolicy
  /// `chimed --max-pending-per-app`.
  let maxPendingPerApp: Int
  /// Every app's recorded authorization and badge count, as committed: read once at start-up,
  /// then kept in step after each commit that changes them (only this service writes them).
  var authorizations: [String: AppAuthorization]

  /// The service over an open store, on `loop`. Takes the clock, zone, apps directory,
  /// missed-fire grace, window and file-lane sizes from `configuration`.
  init(loop: EventLoop, database: ChimeDatabase, attachments: AttachmentStore, presenter: any Presenter,
       configuration: ServerConfiguration, authorizations: [String: AppAuthorization]) {
    let appsDirectory = configuration.appsDirectory
    policy = configuration.authorizationPolicy
    maxPendingPerApp = configuration.maxPendingPerApp
    self.authorizations = authorizations
    self.attachments = attachments
    beforeStaging = configuration.beforeStaging
    fileLane = FileLane(loop: loop, width: configuration.fileLaneWidth)
    self.appsDirectory = appsDirectory
    zoneProvider = configuration.timeZone
    zone = configuration.timeZone()
    self.loop = loop
    self.database = database
    clock = configuration.clock
    logger = configuration.logger
    self.presenter = presenter
    extensionAnswerTimeoutMillis = configuration.extensionAnswerTimeoutMillis
    pushLimits = (configuration.pushPayloadMaxBytes, configuration.serviceExtensionTimeoutMillis, configuration.serviceExtensionGraceMillis)
    writer = GroupCommitWriter(loop: loop, database: database)
    hub = SubscriptionHub(loop: loop, database: database, clock: clock, logger: logger,
                          limits: (configuration.maxSubscribers, configuration.maxSubscribersPerApp))
    let preparation = FirePreparation(database: database, missedGraceMillis: configuration.missedGraceMillis,
                                      soundRecheck: { resolved, app, registered in
                                        SoundResolver.recheck(resolved, layout: registered ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory))
                                      }, logger: logger, policy: configuration.authorizationPolicy)
    scheduler = Scheduler(loop: loop, database: database, writer: writer, clock: clock, configuration: Scheduler.Configuration(windowCapacity: configuration.windowCapacity),
                          preparation: preparation, logger: logger)
    scheduler.host = self
  }

  func start() {
    extensionTimer = LoopTimer(loop: loop) { [unowned self] in expireExtensionAnswers() }
    let database = self.database
    loop.runBlocking({ (try? database.lastCursor()) ?? 0 }, then: { [hub] cursor in
      if cursor > hub.lastCommittedCursor { hub.lastCommittedCursor = cursor }
    })
    scheduler.start()
  }

  /// Runs `done` once every accepted change is committed and every add that touched files has
  /// answered; the scheduler stops firing. Adds still waiting for the file lane are refused
  /// (UNAVAILABLE `SHUTTING_DOWN`, their files untouched); adds whose files are being looked
  /// at or staged finish, commit and answer first.
  func stop(_ done: @escaping () -> Void) {
    halt()
    whenPrepared { [writer] in writer.whenIdle(done) }
  }

  /// Stops firing and closes the file lane at once, waiting for nothing: for a daemon whose
  /// start-up failed, or after `stop` has drained. Idempotent.
  func halt() {
    scheduler.stop()
    fileLane.close()
    // Responses waiting for an extension go ahead now (their commits are what stop waits for).
    extensions.resolveAll()
    extensionTimer?.close()
    extensionTimer = nil
    presenter.stop()
  }

  /// Runs `action` once no add that went through the file path is still unanswered.
  private func whenPrepared(_ action: @escaping () -> Void) {
    if preparing == 0 { action() } else { preparedWaiters.append(action) }
  }

  func preparationEnded() {
    preparing -= 1
    guard preparing == 0 else { return }
    let waiters = preparedWaiters
    preparedWaiters.removeAll()
    for waiter in waiters { waiter() }
  }

  var writerIdle: Bool { writer.isIdle }
  var fileLaneCounts: (running: Int, queued: Int) { (fileLane.running, fileLane.queued) }
  /// Schedule keys held in memory.
  var scheduleWindowCount: Int { scheduler.windowCount }
  var subscriberCount: Int { hub.subscriberCount }

  /// The wall clock moved (or a test moved its clock): due times are looked at again now.
  func clockChanged() {
    scheduler.clockChanged()
    expireExtensionAnswers()
  }

  /// Listing pages stop short of this many bytes of records, so a reply fits the 1 MiB frame
  /// every client accepts by default, whatever the page size asked for.
  static let replyBudgetBytes = (1 << 20) - 64 * 1024

  // MARK: calls

  func add(app: String, request: NotificationRequest, reply: @escaping Reply<AddResult>) {
    do {
      try RequestValidator.validate(request)
    } catch {
      reply(.failure(error))
      return
    }
    if let refusal = permissions(of: app).refusal(app: app, policy: policy, status: authorization(of: app).status) {
      return reply(.failure(refusal))
    }
    let now = clock.now()
    let first: Instant
    do {
      first = try TriggerPlanner.firstFire(of: request.trigger, added: now, zone: zone)
    } catch {
      reply(.failure(error))
      return
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

  private func commitAdd(app: String, prepared: PreparedRequest, first: Instant, now: Instant, reply: @escaping Reply<AddResult>) {
    let request = prepared.request
    let pending = PendingRequest(request: request, nextFire: first, added: now, sound: prepared.sound)
    if request.trigger == nil {
      writer.submit(immediateDelivery(app: app, prepared: prepared, at: now)) { [self] result in
        finishAdd(result, prepared: prepared, reply: reply) { outcome in
          published(outcome.events, files: outcome.discardedFiles, delivered: outcome.delivered, app: app)
          return AddResult(pending: pending, replaced: outcome.replaced, delivered: outcome.delivered)
        }
      }
    } else {
      let add = AddPending(app: app, pending: pending, at: now, limit: maxPendingPerApp)
      writer.submit(add) { [self] result in
        finishAdd(result, prepared: prepared, reply: reply) { outcome in
          published(outcome.events, files: outcome.discardedFiles, app: app)
          scheduler.scheduled(ScheduleKey(due: pending.nextFire, app: app, identifier: request.identifier))
          return AddResult(pending: pending, replaced: outcome.replaced)
        }
      }
    }
  }

  /// Answers an add once its commit is known, after its staged files are settled.
  private func finishAdd<Outcome>(_ result: Result<Outcome, ChimeError>, prepared: PreparedRequest, reply: @escaping Reply<AddResult>,
                                  committed: (Outcome) -> AddResult) {
    switch result {
    case .failure(let error):
      settleFiles(of: prepared, committed: false) { reply(.failure(error)) }
    case .success(let outcome):
      let answer = committed(outcome)
      settleFiles(of: prepared, committed: true) { reply(.success(answer)) }
    }
  }

  // MARK: helpers

  /// After a commit: events to subscribers, files nothing holds off the store, a delivery to
  /// the presenter (and removed deliveries off the desktop).
  func published(_ events: [Event], files: [String], delivered: DeliveredNotification? = nil, app: String) {
    for event in events where event.kind == .badgeChanged {
      authorizations[app, default: .none].badgeCount = event.badgeCount ?? 0
    }
    hub.publish(events, app: app)
    discard(files)
    for event in events where event.kind == .deliveredRemoved {
      presenter.withdraw(app: app, identifiers: event.identifiers)
    }
    if let delivered {
      extensions.delivered(delivered, app: app)
      presenter.present(delivered, app: app)
    }
  }

  /// Unlinks attachment files nothing holds any more, in the file lane.
  func discard(_ files: [String]) {
    guard !files.isEmpty else { return }
    let attachments = self.attachments
    fileLane.runToEnd({ attachments.discard(files) }, then: { _ in })
  }
}
