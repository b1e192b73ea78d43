import ChimeCore
import ChimeStore
import Logging

/// What every part of the service shares: the loop, the store and its writer, the clock, the
/// subscribers, the presenter, the attachment store and its file lane, the live extensions, the
/// apps' authorizations and the scheduler. Loop thread only.
final class ServiceContext {
  typealias Reply<T> = (Result<T, ChimeError>) -> Void

  let loop: EventLoop
  let database: ChimeDatabase
  let writer: GroupCommitWriter
  let clock: any WallClock
  let logger: Logger
  let hub: SubscriptionHub
  let presenter: any Presenter
  let attachments: AttachmentStore
  /// Attachment staging, a few at a time (see FileLane).
  let fileLane: FileLane
  let extensions: ExtensionWaits
  let access: AuthorizationBook
  let scheduler: Scheduler
  /// The user's Do Not Disturb setting, asked at each delivery.
  let doNotDisturb: DoNotDisturbBook
  /// Told of what happened to a calendar's notifications (`published`), to write a dismissal
  /// or snooze back into the item and sum up missed alarms.
  weak var calendarAlarms: (any CalendarAlarmObserver)?

  init(loop: EventLoop, database: ChimeDatabase, writer: GroupCommitWriter, clock: any WallClock, logger: Logger,
       hub: SubscriptionHub, presenter: any Presenter, attachments: AttachmentStore, fileLane: FileLane,
       extensions: ExtensionWaits, access: AuthorizationBook, scheduler: Scheduler, doNotDisturb: DoNotDisturbBook) {
    self.loop = loop
    self.database = database
    self.writer = writer
    self.clock = clock
    self.logger = logger
    self.hub = hub
    self.presenter = presenter
    self.attachments = attachments
    self.fileLane = fileLane
    self.extensions = extensions
    self.access = access
    self.scheduler = scheduler
    self.doNotDisturb = doNotDisturb
  }

  /// After a commit: events to subscribers (a badge change kept in the loop's copy), files
  /// nothing holds off the store, a delivery to the live extensions and the presenter, removed
  /// and snoozed deliveries off the desktop, and a calendar's events to the calendar service
  /// unless they are its own (`fromCalendar`: its withdrawals are not the user's dismissals).
  func published(_ events: [Event], files: [String], delivered: DeliveredNotification? = nil, app: String, fromCalendar: Bool = false) {
    for event in events where event.kind == .badgeChanged {
      access.badgeChanged(app: app, count: event.badgeCount ?? 0)
    }
    hub.publish(events, app: app)
    discard(files)
    for event in events where event.kind == .deliveredRemoved || event.kind == .snoozed {
      presenter.withdraw(app: app, identifiers: event.identifiers)
    }
    if let delivered {
      extensions.hub.delivered(delivered, app: app)
      presenter.present(delivered, app: app)
    }
    // Compared as bytes: on every add's publish, a Unicode-aware hasPrefix costs more.
    if !fromCalendar, let calendarAlarms, app.utf8.starts(with: CalendarSource.appIDPrefix.utf8) {
      calendarAlarms.calendarEvents(events, app: app)
    }
  }

  /// Unlinks attachment files nothing holds any more, in the file lane.
  func discard(_ files: [String]) {
    guard !files.isEmpty else { return }
    let attachments = self.attachments
    fileLane.runToEnd({ attachments.discard(files) }, then: { _ in })
  }

  /// Runs `query` on the work pool and answers its result on the loop.
  func read<T: Sendable>(_ reply: @escaping Reply<T>, _ query: @escaping @Sendable (ChimeDatabase) throws(ChimeError) -> T) {
    let database = self.database
    loop.runBlocking(catching: { () throws(ChimeError) in try query(database) }, then: reply)
  }
}

/// What the calendar service hears of its apps' notifications.
protocol CalendarAlarmObserver: AnyObject {
  /// Events committed for a calendar's app by anything but the calendar service itself.
  func calendarEvents(_ events: [Event], app: String)
}
