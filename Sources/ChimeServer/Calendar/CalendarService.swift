import ChimeCore
import ChimeStore
import ChimeSystem
import Logging

/// Registered calendars (issue 41): their alarms become pending requests of each calendar's own
/// app (calendar add, list, remove, sync). A source is scanned whole at start, when added, on
/// `sync` and when time reaches the end of its planning window; in between, the files inotify
/// reports changed are rescanned alone. What the user does with an alarm is written back into
/// its item (`+WriteBack`); alarms that fell due unseen follow the missed-fire rule and older
/// ones are summed up (`+Missed`). Loop thread only.
final class CalendarService {
  typealias Reply<T> = ServiceContext.Reply<T>

  struct Configuration {
    /// How far ahead alarms are planned and scheduled: only the next ones are pending, and a
    /// whole rescan plans the next stretch when half of this has passed.
    var horizonMillis: Int64 = 2 * 86_400_000
    /// How long after the last change the changed files are rescanned: the files of one save
    /// or one sync arrive together.
    var settleMillis: UInt64 = 50
    /// The longest a burst of changes that goes on waits for its rescan from its first change.
    var settleMaxMillis: UInt64 = 1000
    /// A calendar alarm that fell due while chimed was stopped (or the machine slept) is
    /// delivered, marked missed, when it is less late than this; older ones are summed up.
    var missedGraceMillis: Int64 = 3_600_000
    /// How far back a scan looks: for alarms that fell due unseen, and for acknowledgements of
    /// alarms still showing.
    var lookbackMillis: Int64 = 7 * 86_400_000
    /// How long missed alarms are gathered before their summary is posted.
    var summarySettleMillis: UInt64 = 500
    /// The longest the start-up scans hold the calendars' due alarms back.
    var startHoldMillis: UInt64 = 30_000
    /// Most alarms written back by one run of the helper.
    var writeBatch = 64
    /// A failed whole scan is tried again this much later, doubling up to the maximum.
    var retryMinMillis: UInt64 = 1000
    var retryMaxMillis: UInt64 = 300_000
  }

  /// One registered calendar's live state.
  final class Source {
    let name: String
    let path: String
    let isDirectory: Bool
    var plannedUntil: Instant
    var watch: FileWatch?
    var settle: LoopTimer?
    /// When the changes waiting for `settle` began.
    var settleSince: ContinuousClock.Instant?
    /// Names changed since the last scan started (a whole scan queued wins over them).
    var changed: Set<String> = []
    var wholeQueued = false
    var scanning = false
    /// Answers waiting for the scan after the running one.
    var waiting: [(Result<Void, ChimeError>) -> Void] = []
    var removed = false
    /// The store's write-back queue may hold dismissals or snoozes of it (`+WriteBack`).
    var writesQueued = false
    var writing = false
    /// Alarms skipped as missed (too late) and what the summary says, and the timer that
    /// posts it.
    var missed = MissedTally()
    var summary: LoopTimer?
    /// Why the last whole scan failed (nil: it did not), and its retry (`+Recovery`).
    var failure: String?
    var retry: LoopTimer?
    var retryDelayMillis: UInt64 = 0
    /// The directory the watch follows, once looked at after a whole scan.
    var watchedIdentity: DirectoryIdentity?
    var directoryChecked = false

    init(name: String, path: String, isDirectory: Bool, plannedUntil: Instant) {
      self.name = name
      self.path = path
      self.isDirectory = isDirectory
      self.plannedUntil = plannedUntil
    }
  }

  let context: ServiceContext
  let zones: ZonePlanner
  let scanner: CalendarScanner?
  var configuration = Configuration()
  var sources: [String: Source] = [:]
  /// The zone the current plans were made in: floating and all-day times follow it.
  var plannedZone: Zone?
  var replanTimer: LoopTimer?
  /// Ends the start-up hold on the calendars' due alarms if their scans take too long.
  var holdTimer: LoopTimer?
  var stopped = false
  /// Who waits for every queued dismissal and snooze to be written back.
  var writtenBackWaiters: [() -> Void] = []

  init(context: ServiceContext, zones: ZonePlanner, scanner: CalendarScanner? = CalendarScanner.locate()) {
    self.context = context
    self.zones = zones
    self.scanner = scanner
    context.calendarAlarms = self
  }

  /// Before the scheduler starts: the calendars' alarms that are due are held back until
  /// `start`'s scans have seen the items as they are now (an alarm acknowledged on another
  /// device while chimed was stopped never fires; one moved or deleted is withdrawn).
  func holdDueAlarms() {
    context.scheduler.hold(appsWithPrefix: CalendarSource.appIDPrefix)
    holdTimer = LoopTimer(loop: context.loop) { [weak self] in self?.releaseDueAlarms() }
    holdTimer?.arm(afterMillis: configuration.startHoldMillis)
  }

  func releaseDueAlarms() {
    holdTimer?.close()
    holdTimer = nil
    context.scheduler.release()
  }

  /// Reads the registered calendars and scans each whole; then releases the held alarms.
  func start() {
    plannedZone = zones.zone
    replanTimer = LoopTimer(loop: context.loop) { [weak self] in self?.replanDue() }
    if scanner == nil {
      context.logger.warning("calendar alarms off: no \(CalendarScanner.name) helper found beside chimed or in its libexec directory")
    }
    context.read({ [self] (result: Result<[StoredCalendar], ChimeError>) in
      switch result {
      case .success(let calendars):
        var left = calendars.count
        for stored in calendars {
          guard let source = track(stored.source, plannedUntil: stored.plannedUntil, scan: false) else { continue }
          // What was committed and not yet written when chimed last stopped (or was killed).
          source.writesQueued = true
          writeBack(source)
          scan(source, files: nil) { [self] _ in
            left -= 1
            if left == 0 { releaseDueAlarms() }
          }
        }
        if calendars.isEmpty || stopped { releaseDueAlarms() }
      case .failure(let error):
        context.logger.error("calendar sources not read", metadata: ["error": "\(error)"])
        releaseDueAlarms()
      }
    }) { database throws(ChimeError) in try database.calendars() }
  }

  /// Stops watching, scanning and planning. The sources stay known, so dismissals committed
  /// while chimed stops are still written back (`whenWrittenBack`).
  func stop() {
    stopped = true
    replanTimer?.close()
    holdTimer?.close()
    holdTimer = nil
    for source in sources.values { untrack(source) }
  }

  /// Registers the calendar at `path` as `name` and scans it; answers once its alarms are
  /// scheduled.
  ///
  /// - Throws (through `reply`): INVALID_ARGUMENT `INVALID_CALENDAR_NAME` or
  ///   `INVALID_CALENDAR_PATH` (it does not exist, or is neither a directory nor a `.ics`
  ///   file); ALREADY_EXISTS `CALENDAR_EXISTS`; the store's errors.
  func add(name: String, path: String, reply: @escaping Reply<CalendarSource>) {
    do {
      try CalendarSource.validate(name: name)
    } catch {
      return reply(.failure(error))
    }
    context.loop.runBlocking(catching: { () throws(ChimeError) in try Self.resolve(path) }) { [self] (result: Result<String, ChimeError>) in
      let resolved: String
      switch result {
      case .failure(let error): return reply(.failure(error))
      case .success(let path): resolved = path
      }
      let source = CalendarSource(name: name, path: resolved, added: context.clock.now())
      context.writer.submit(AddCalendarSource(source: source, categories: CalendarAlarmRequest.categories)) { [self] result in
        switch result {
        case .failure(let error): reply(.failure(error))
        case .success:
          guard let tracked = track(source, plannedUntil: Instant(unixMillis: 0), scan: false) else { return reply(.success(source)) }
          scan(tracked, files: nil) { [self] _ in answerListing(name, reply) }
        }
      }
    }
  }

  /// Unregisters `name`: its pending alarms are withdrawn. Answers how many were.
  ///
  /// - Throws (through `reply`): NOT_FOUND `CALENDAR_NOT_FOUND`; the store's errors.
  func remove(name: String, reply: @escaping Reply<Int>) {
    let app = CalendarSource.appID(for: name)
    context.writer.submit(RemoveCalendarSource(name: name, at: context.clock.now())) { [self] result in
      reply(result.map { outcome in
        if let source = sources.removeValue(forKey: name) { untrack(source) }
        context.published(outcome.events, files: outcome.discardedFiles, app: app, fromCalendar: true)
        return outcome.removed.count
      })
    }
  }

  /// Every registered calendar with its counts, last scan and file errors, by name.
  func list(reply: @escaping Reply<[CalendarSource]>) {
    context.read({ [self] (result: Result<[CalendarSource], ChimeError>) in reply(result.map(withFailures)) }) { database throws(ChimeError) in
      try database.calendars().map(\.source)
    }
  }

  /// Scans `name` whole (nil: every calendar), then answers with the listing.
  ///
  /// - Throws (through `reply`): NOT_FOUND `CALENDAR_NOT_FOUND`; the scan's errors.
  func sync(name: String?, reply: @escaping Reply<[CalendarSource]>) {
    let chosen: [Source]
    if let name {
      guard let source = sources[name] else {
        return reply(.failure(ChimeError(.calendarNotFound, "no calendar named \(name) is registered", field: "name")))
      }
      chosen = [source]
    } else {
      chosen = Array(sources.values)
    }
    var left = chosen.count
    var failure: ChimeError?
    guard left > 0 else { return list(reply: reply) }
    for source in chosen {
      scan(source, files: nil) { [self] result in
        if case .failure(let error) = result { failure = failure ?? error }
        left -= 1
        guard left == 0 else { return }
        if let failure { return reply(.failure(failure)) }
        list(reply: reply)
      }
    }
  }

  private func answerListing(_ name: String, _ reply: @escaping Reply<CalendarSource>) {
    list { result in
      reply(result.flatMap { all in
        all.first(where: { $0.name == name }).map { .success($0) }
          ?? .failure(ChimeError(.calendarNotFound, "calendar \(name) was removed meanwhile", field: "name"))
      })
    }
  }

  /// `path` made absolute with links resolved, checked to be a directory or a `.ics` file.
  static func resolve(_ path: String) throws(ChimeError) -> String {
    guard let resolved = FileSystem.realPath(path), let status = FileSystem.status(resolved) else {
      throw ChimeError(.invalidCalendarPath, "\(path) does not exist", field: "path")
    }
    guard status.kind == .directory || (status.isRegular && resolved.lowercased().hasSuffix(".ics")) else {
      throw ChimeError(.invalidCalendarPath, "\(path) is neither a directory (a vdir) nor a .ics file", field: "path")
    }
    return resolved
  }
}
