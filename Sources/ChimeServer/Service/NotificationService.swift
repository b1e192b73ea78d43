import ChimeConfig
import ChimeCore
import ChimeStore
import Logging

/// The NotificationCenter calls, on ChimeCore values, in parts named for what they own over
/// one shared context: intake (`Add`, `Push`), listings and removal, responses and extensions,
/// authorization, apps and categories, and the zone floating triggers follow. Loop thread only;
/// every answer comes through a completion on the loop thread. No socket or wire format here,
/// so the calls can be driven in-process as well as through the daemon.
final class NotificationService {
  let context: ServiceContext
  let intake: IntakeService
  let listings: ListingService
  let responses: ResponseService
  let authorization: AuthorizationService
  let apps: AppRegistry
  let zones: ZonePlanner
  let doNotDisturb: DoNotDisturbService
  let snoozes: SnoozeService
  let calendars: CalendarService

  /// The service over an open store, on `loop`. Takes the clock, zone, apps directory,
  /// missed-fire grace, window and file-lane sizes from `configuration`.
  init(loop: EventLoop, database: ChimeDatabase, attachments: AttachmentStore, presenter: any Presenter,
       configuration: ServerConfiguration, authorizations: [String: AppAuthorization], doNotDisturb: DoNotDisturb = .off) {
    let appsDirectory = configuration.paths.appsDirectory, clock = configuration.hooks.clock, logger = configuration.collaborators.logger
    let writer = GroupCommitWriter(loop: loop, database: database)
    let hub = SubscriptionHub(loop: loop, database: database, clock: clock, logger: logger,
                              limits: (configuration.limits.maxSubscribers, configuration.limits.maxSubscribersPerApp))
    let quiet = DoNotDisturbBook(doNotDisturb)
    var preparation = FirePreparation(database: database, missedGraceMillis: configuration.limits.missedGraceMillis,
                                      soundRecheck: { resolved, app, registered in
                                        // A calendar's AUDIO alarm names its file anywhere: no layout confines it.
                                        app.hasPrefix(CalendarSource.appIDPrefix) ? SoundResolver.recheckCalendarFile(resolved)
                                          : SoundResolver.recheck(resolved, layout: registered ?? AppLayout.defaults(for: app, appsDirectory: appsDirectory))
                                      }, logger: logger, policy: configuration.policy.authorization)
    preparation.doNotDisturb = quiet
    let scheduler = Scheduler(loop: loop, database: database, writer: writer, clock: clock,
                              configuration: Scheduler.Configuration(windowCapacity: configuration.limits.windowCapacity),
                              preparation: preparation, logger: logger)
    context = ServiceContext(loop: loop, database: database, writer: writer, clock: clock, logger: logger, hub: hub,
                             presenter: presenter, attachments: attachments,
                             fileLane: FileLane(loop: loop, width: configuration.limits.fileLaneWidth),
                             extensions: ExtensionWaits(clock: clock, answerTimeoutMillis: configuration.limits.extensionAnswerTimeoutMillis),
                             access: AuthorizationBook(policy: configuration.policy.authorization, records: authorizations),
                             scheduler: scheduler, doNotDisturb: quiet)
    zones = ZonePlanner(context: context, zoneProvider: configuration.hooks.timeZone)
    intake = IntakeService(context: context, zones: zones, configuration: configuration)
    listings = ListingService(context: context)
    responses = ResponseService(context: context)
    authorization = AuthorizationService(context: context, promptWaitMillis: configuration.limits.authorizationPromptWaitMillis)
    apps = AppRegistry(context: context, appsDirectory: appsDirectory)
    self.doNotDisturb = DoNotDisturbService(context: context, zones: zones)
    snoozes = SnoozeService(context: context)
    calendars = CalendarService(context: context, zones: zones)
    calendars.configuration.missedGraceMillis = configuration.limits.calendarMissedGraceMillis
    scheduler.host = self
  }

  /// Starts serving; the desktop's own Do Not Disturb is followed through `desktop` (nil: none).
  func start(desktop: (any DesktopQuietSource)? = nil) {
    context.extensions.open(loop: context.loop)
    let database = context.database, hub = context.hub
    context.loop.runBlocking({ (try? database.lastCursor()) ?? 0 }, then: { cursor in
      if cursor > hub.lastCommittedCursor { hub.lastCommittedCursor = cursor }
    })
    // The calendars' due alarms wait for their start-up scans (`calendars.start`).
    calendars.holdDueAlarms()
    context.scheduler.start()
    doNotDisturb.start(desktop: desktop)
    context.presenter.start()
    authorization.start()
    calendars.start()
  }

  /// Runs `done` once every accepted change is committed and every add that touched files has
  /// answered; the scheduler stops firing. Adds still waiting for the file lane are refused
  /// (UNAVAILABLE `SHUTTING_DOWN`, their files untouched); adds whose files are being looked
  /// at or staged finish, commit and answer first.
  func stop(_ done: @escaping () -> Void) {
    halt()
    // Dismissals committed until then are written into their calendar items before the last
    // commit (which records how that went).
    intake.whenPrepared { [writer = context.writer, calendars] in
      writer.whenIdle { calendars.whenWrittenBack { writer.whenIdle(done) } }
    }
  }

  /// Stops firing and closes the file lane at once, waiting for nothing: for a daemon whose
  /// start-up failed, or after `stop` has drained. Idempotent.
  func halt() {
    calendars.stop()
    context.scheduler.stop()
    doNotDisturb.stop()
    context.fileLane.close()
    // Responses waiting for an extension go ahead now (their commits are what stop waits for).
    context.extensions.close()
    // Calls waiting for the user's answer to a prompt answer not determined now.
    authorization.stop()
    context.presenter.stop()
  }

  var writerIdle: Bool { context.writer.isIdle }
  var fileLaneCounts: (running: Int, queued: Int) { (context.fileLane.running, context.fileLane.queued) }
  /// Schedule keys held in memory.
  var scheduleWindowCount: Int { context.scheduler.windowCount }
  var subscriberCount: Int { context.hub.subscriberCount }

  /// The wall clock moved (or a test moved its clock): due times are looked at again now.
  func clockChanged() {
    context.scheduler.clockChanged()
    context.extensions.expire()
    authorization.waits.expire()
    doNotDisturb.clockChanged()
    context.presenter.clockChanged()
    calendars.replanDue()
  }

  /// Asks for the zone again; when it changed, re-plans floating calendar triggers.
  func checkTimeZone() {
    zones.checkTimeZone()
    // The schedule's windows are read in that zone: one may have ended with the change.
    doNotDisturb.clockChanged()
    calendars.zoneChecked()
  }
}
