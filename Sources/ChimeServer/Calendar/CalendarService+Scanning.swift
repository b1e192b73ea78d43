import ChimeCore
import ChimeStore
import ChimeSystem
import Logging

/// Scanning: one scan at a time per calendar, the helper run on the work pool, its findings
/// turned into pending requests there too, then committed as one `ApplyCalendarScan`.
extension CalendarService {
  /// Starts following `source`: its directory watched, a whole scan unless `scan` is false.
  /// A calendar already followed stays as it is: the start-up read of the registered calendars
  /// can come back after an `add` made meanwhile, and a second `Source` would leave the first
  /// one's watch open for good (the loop, and so chimed's shutdown, would never end).
  @discardableResult
  func track(_ source: CalendarSource, plannedUntil: Instant, scan: Bool = true) -> Source? {
    guard !stopped else { return nil }
    if let followed = sources[source.name] { return followed }
    let isDirectory = !source.path.lowercased().hasSuffix(".ics")
    let tracked = Source(name: source.name, path: source.path, isDirectory: isDirectory, plannedUntil: plannedUntil)
    sources[source.name] = tracked
    watch(tracked)
    if scan { self.scan(tracked, files: nil) { _ in } }
    return tracked
  }

  /// Stops following `source`: no more watching or scanning (its queued write-backs still go).
  func untrack(_ source: Source) {
    source.removed = true
    source.watch?.close()
    source.watch = nil
    source.settle?.close()
    source.settle = nil
    source.summary?.close()
    source.summary = nil
    source.retry?.close()
    source.retry = nil
  }

  /// Watches the collection directory (or a one-file calendar's directory, for its name):
  /// vdirsyncer replaces items by renaming into the directory, editors rewrite or rename. An
  /// event about the directory itself (libuv names it by its own last component: deleted,
  /// moved away) or one libuv could not name is read whole, which finds out what happened.
  func watch(_ source: Source) {
    let directory = Self.watchedDirectory(source)
    let own = source.isDirectory ? nil : String(source.path[source.path.index(after: source.path.lastIndex(of: "/") ?? source.path.startIndex)...])
    let itself = directory.split(separator: "/").last.map(String.init)
    do {
      source.watch = try FileWatch(loop: context.loop, path: directory) { [weak self, weak source] name in
        guard let self, let source else { return }
        if let name, name != itself {
          if let own {
            guard name == own else { return }
            source.wholeQueued = true
          } else {
            guard CalendarService.isItemName(name) else { return }
            source.changed.insert(name)
          }
        } else {
          source.wholeQueued = true
        }
        settle(source)
      }
    } catch {
      // The directory is not there (or inotify's limit is reached): the failed scan's retry,
      // or the next whole scan, watches it once it can (`+Recovery`).
      context.logger.warning("calendar changes are not watched", metadata: ["calendar": "\(source.name)", "error": "\(error)"])
    }
  }

  /// The names a vdir's items have (vdirsyncer's temporaries are hidden).
  static func isItemName(_ name: String) -> Bool {
    name.lowercased().hasSuffix(".ics") && !name.hasPrefix(".") && !name.contains("/")
  }

  /// Gathers a burst of changes, then rescans what changed: `settleMillis` after the last
  /// one, and no later than `settleMaxMillis` after the first (a sync that keeps writing is
  /// still taken in as it goes).
  func settle(_ source: Source) {
    if source.settle == nil {
      source.settle = LoopTimer(loop: context.loop) { [weak self, weak source] in
        guard let self, let source else { return }
        scanChanged(source)
      }
    }
    let now = ContinuousClock.now
    let since = source.settleSince ?? now
    source.settleSince = since
    let waited = UInt64(max(0, (now - since) / .milliseconds(1)))
    let left = configuration.settleMaxMillis > waited ? configuration.settleMaxMillis - waited : 0
    source.settle?.arm(afterMillis: min(configuration.settleMillis, left))
  }

  private func scanChanged(_ source: Source) {
    source.settleSince = nil
    guard !source.scanning else { return }
    let whole = source.wholeQueued
    let names = source.changed
    guard whole || !names.isEmpty else { return }
    source.wholeQueued = false
    source.changed = []
    scan(source, files: whole ? nil : names, reported: whole ? names : []) { _ in }
  }

  /// Scans `files` of `source` (nil: all of it, planning a new window), then `then`.
  ///
  /// The window starts now, or earlier: at the oldest alarm of the calendar still pending,
  /// showing or snoozed (to see whether it was acknowledged meanwhile), and for a whole scan at
  /// the end of the window planned before, when that has passed (alarms after it were never
  /// planned: they fell due while chimed was stopped or the machine slept, and follow the
  /// missed-fire rule). It never starts more than `lookbackMillis` back, nor before now for a
  /// calendar planned for the first time (its past alarms are not news).
  ///
  /// `reported`: files inotify reported changed that a whole scan takes in; should the whole
  /// scan find the calendar gone, those files went with it (`+Recovery`).
  func scan(_ source: Source, files given: Set<String>?, reported: Set<String> = [], then: @escaping (Result<Void, ChimeError>) -> Void) {
    let files = given?.isEmpty == true ? nil : given
    guard !stopped, !source.removed else { return then(.success(())) }
    if source.scanning {
      source.changed.formUnion(reported)
      if let files { source.changed.formUnion(files) } else { source.wholeQueued = true }
      source.waiting.append(then)
      return
    }
    guard let scanner else {
      // Nothing to retry: the helper is not installed beside chimed. `list` and `doctor` say so.
      let error = ChimeError(.internal, "no \(CalendarScanner.name) helper found beside chimed or in its libexec directory")
      source.failure = error.message
      return then(.failure(error))
    }
    let now = context.clock.now()
    // A partial scan plans within the window already planned; once it has ended, the whole.
    let whole = files == nil || source.plannedUntil <= now
    let until = whole ? Instant(unixMillis: now.unixMillis + configuration.horizonMillis) : source.plannedUntil
    let plannedBefore = source.plannedUntil
    let zone = zones.zone
    source.scanning = true
    let name = source.name, path = source.path, app = CalendarSource.appID(for: source.name), database = context.database
    let names = whole ? nil : files.map { Array($0).sorted() }
    let earliest = Instant(unixMillis: now.unixMillis - configuration.lookbackMillis)
    let graceMillis = configuration.missedGraceMillis, scheduleGraceMillis = context.scheduler.missedGraceMillis
    context.loop.runBlocking(catching: { () throws(ChimeError) -> (ApplyCalendarScan, missed: Int) in
      var from = try database.earliestHeldCalendarAlarm(source: name, before: now) ?? now
      if whole, plannedBefore.unixMillis > 0 { from = min(from, plannedBefore) }
      from = max(from, earliest)
      let found = try scanner.scan(source: path, files: names, after: from, until: until, zone: zone)
      var missed = 0
      // An AUDIO alarm's file, judged once a scan however many alarms name it.
      var sounds: [String: SoundResolution] = [:]
      func sound(_ path: String) -> SoundResolution {
        if let known = sounds[path] { return known }
        let resolved = SoundResolver.calendarFile(path)
        sounds[path] = resolved
        return resolved
      }
      let files = found.files.map { file -> ApplyCalendarScan.File in
        switch file.file {
        case .gone: return ApplyCalendarScan.File(name: file.name, outcome: .gone)
        case .failed(let message): return ApplyCalendarScan.File(name: file.name, outcome: .failed(message))
        case .item(let alarms, let acknowledged):
          let request = { (alarm: PlannedAlarm) in
            CalendarAlarmRequest.pending(alarm, file: file.name, calendar: name, zone: zone, now: now,
                                         missedGraceSeconds: Double(graceMillis) / 1000, sound: sound)
          }
          let planned = alarms.map { alarm -> ApplyCalendarScan.Planned in
            let pending = request(alarm)
            let origin = CalendarAlarmRequest.origin(alarm)
            // Due already: added only when it was never planned (after the last window's end),
            // as the missed-fire rule says; one planned before is pending, fired or gone.
            guard alarm.at < now else {
              // Bounded by the planning window, not by the per-app limit clients have.
              return ApplyCalendarScan.Planned(AddPending(app: app, pending: pending, at: now, limit: .max), origin: origin)
            }
            let unplanned = plannedBefore.unixMillis > 0 && alarm.at >= plannedBefore
            if unplanned, case .deliver = FirePlan.decide(pending.request, due: pending.nextFire, now: now, missedGraceMillis: scheduleGraceMillis,
                                                          zone: zone).delivery {
              return ApplyCalendarScan.Planned(AddPending(app: app, pending: pending, at: now, limit: .max), origin: origin)
            }
            if unplanned { missed += 1 }
            return ApplyCalendarScan.Planned(identifier: pending.request.identifier, at: pending.nextFire, origin: origin)
          }
          return ApplyCalendarScan.File(name: file.name, outcome: .item(planned, acknowledged: acknowledged.map { request($0).request.identifier }))
        }
      }
      return (ApplyCalendarScan(source: name, files: files, whole: whole, plannedUntil: whole ? until : nil, from: from, at: now), missed)
    }) { [self] (result: Result<(ApplyCalendarScan, missed: Int), ChimeError>) in
      switch result {
      case .failure(let error):
        context.logger.warning("calendar scan failed", metadata: ["calendar": "\(name)", "error": "\(error)"])
        withdrawIfGone(source, error, files: whole ? reported : files ?? [])
        if whole {
          wholeScanFailed(source, error)
        } else if error.reason == Reason.invalidCalendarPath.name {
          // The calendar itself is gone: a whole scan says so in `list` and retries.
          source.wholeQueued = true
        }
        scanEnded(source, .failure(error), then: then)
      case .success(let (mutation, missed)):
        guard !stopped, !source.removed else { return scanEnded(source, .success(()), then: then) }
        context.writer.submit(mutation) { [self] result in
          switch result {
          case .success(let outcome):
            context.published(outcome.events, files: outcome.discardedFiles, app: app, fromCalendar: true)
            for key in outcome.added { context.scheduler.scheduled(key) }
            if whole {
              source.plannedUntil = until
              wholeScanSucceeded(source)
            }
            if missed > 0 { noteMissed(source, count: missed) }
            scanEnded(source, .success(()), then: then)
            if whole { armReplan() }
          case .failure(let error):
            context.logger.warning("calendar scan not recorded", metadata: ["calendar": "\(name)", "error": "\(error)"])
            scanEnded(source, .failure(error), then: then)
          }
        }
      }
    }
  }

  private func scanEnded(_ source: Source, _ result: Result<Void, ChimeError>, then: (Result<Void, ChimeError>) -> Void) {
    source.scanning = false
    then(result)
    let waiting = source.waiting
    source.waiting = []
    guard source.wholeQueued || !source.changed.isEmpty || !waiting.isEmpty else { return }
    let whole = source.wholeQueued
    let names = source.changed
    source.wholeQueued = false
    source.changed = []
    scan(source, files: whole ? nil : names, reported: whole ? names : []) { result in
      for waiter in waiting { waiter(result) }
    }
  }

  /// Arms the timer for the first calendar whose window is half gone. Calendars being scanned
  /// are left out (their scan arms it again when it ends); one already due is looked at on the
  /// next loop turn, never at once: a timer re-armed for 0 ms from its own callback would run
  /// again before libuv looks at anything else.
  func armReplan() {
    guard !stopped, let first = sources.values.filter({ !$0.scanning }).map(\.plannedUntil).min() else { return }
    let due = first.unixMillis - configuration.horizonMillis / 2
    let delay = max(1, due - context.clock.now().unixMillis)
    replanTimer?.arm(afterMillis: UInt64(min(delay, 86_400_000)))
  }

  /// Time moved on (or the clock jumped): calendars whose window is half gone plan the next.
  /// One being scanned (a file that changed) plans it right after: `armReplan` leaves out
  /// calendars being scanned, so skipping it here would leave its window unplanned until the
  /// next whole scan.
  func replanDue() {
    let now = context.clock.now().unixMillis
    for source in sources.values where source.plannedUntil.unixMillis - configuration.horizonMillis / 2 <= now {
      if source.scanning {
        source.wholeQueued = true
      } else {
        scan(source, files: nil) { _ in }
      }
    }
    armReplan()
  }

  /// The zone may have changed: floating and all-day times are read in it, so every calendar
  /// is planned again when it did.
  func zoneChecked() {
    guard let planned = plannedZone, planned != zones.zone else { return }
    plannedZone = zones.zone
    for source in sources.values { scan(source, files: nil) { _ in } }
  }
}
