import ChimeCore
import ChimeStore
import Logging

/// Dismissals and snoozes written back into the items (RFC 9074), so every device that syncs
/// the calendar sees them. Whatever takes a calendar's notification off the list — the
/// desktop's close or Dismiss, `chime delivered --remove`, a response, a snooze — is queued in
/// the store by the transaction that commits it (`calendar_write_back`; the calendar's own
/// withdrawals are not), so one committed just before chimed was killed is written at the next
/// start. The committed event (`CalendarAlarmObserver`) says the queue has something. Per
/// calendar one helper run at a time, on the work pool, never inside a transaction: the
/// store's rows say which alarm of which file each notification is, `chime-calendar
/// write-back` edits the files' current bytes, the entries the run took leave the queue, and
/// the files written are rescanned once with the changes inotify reports for them (one
/// rescan, not a storm). A snooze written into the item replaces chimed's own: the rescan
/// finds the snoozed alarm acknowledged, ends the snooze, and schedules the item's snooze
/// alarm instead; one that cannot be written stays chimed's. Failures are logged and listed
/// with the file's errors (`chime calendar list`).
extension CalendarService: CalendarAlarmObserver {
  func calendarEvents(_ events: [Event], app: String) {
    // Also while chimed stops: a response answered then is still written back.
    guard let source = sources[String(app.dropFirst(CalendarSource.appIDPrefix.count))] else { return }
    for event in events {
      switch event.kind {
      case .deliveredRemoved:
        source.writesQueued = true
        if event.identifiers.contains(Self.missedSummaryIdentifier) { source.missed.summaryRemoved() }
      case .snoozed:
        source.writesQueued = true
      case .missedSkipped:
        noteMissed(source, count: event.identifiers.count)
      default:
        continue
      }
    }
    writeBack(source)
  }

  /// One queued dismissal or snooze as the store's row describes its alarm.
  private struct Job: Sendable {
    var identifier: String
    var request: AlarmWriteBack.Request
  }

  /// What one run took from the queue and what came of each alarm it could name.
  private struct Run: Sendable {
    var done: [Int64]
    var outcomes: [(job: Job, outcome: AlarmWriteBack.Outcome)]
  }

  /// Runs `done` once no dismissal or snooze is waiting to be written back or being written.
  func whenWrittenBack(_ done: @escaping () -> Void) {
    writtenBackWaiters.append(done)
    checkWrittenBack()
  }

  private func checkWrittenBack() {
    guard !writtenBackWaiters.isEmpty, !sources.values.contains(where: { $0.writing || $0.writesQueued }) else { return }
    let waiters = writtenBackWaiters
    writtenBackWaiters = []
    for done in waiters { done() }
  }

  /// Writes the next batch of `source`'s queued dismissals and snoozes, unless a run is going;
  /// after a batch, the next, until the queue is empty. (An unregistered calendar's queue and
  /// rows are gone: nothing of it is written.)
  func writeBack(_ source: Source) {
    defer { checkWrittenBack() }
    guard !source.writing, source.writesQueued else { return }
    source.writesQueued = false
    guard let scanner else {
      // The queue keeps them for a start with the helper in place.
      return context.logger.warning("calendar alarms not written back: no \(CalendarScanner.name) helper", metadata: ["calendar": "\(source.name)"])
    }
    source.writing = true
    let database = context.database, name = source.name, path = source.path, zone = zones.zone, now = context.clock.now()
    let batch = configuration.writeBatch
    context.loop.runBlocking(catching: { () throws(ChimeError) -> Run in
      let queued = try database.queuedCalendarWriteBacks(source: name, limit: batch)
      guard !queued.isEmpty else { return Run(done: [], outcomes: []) }
      let rows = try database.calendarAlarms(source: name, identifiers: queued.map(\.identifier))
      var jobs: [Job] = []
      for entry in queued {
        // Not a calendar alarm (the missed alarms' summary), or forgotten since.
        guard let row = rows.first(where: { $0.identifier == entry.identifier }),
              let recurrence = CalendarScanLine.recurrence(decoding: row.origin.recurrence) else { continue }
        let kind: AlarmWriteBack.Request.Kind = entry.snoozeUntil.map { .snooze(until: $0) } ?? .dismiss
        jobs.append(Job(identifier: entry.identifier, request: AlarmWriteBack.Request(
          file: row.file, uid: row.origin.uid, recurrenceID: recurrence, at: row.at, repeatIndex: row.origin.repeatIndex, kind: kind)))
      }
      let done = queued.map(\.seq)
      guard !jobs.isEmpty else { return Run(done: done, outcomes: []) }
      do throws(ChimeError) {
        return Run(done: done, outcomes: zip(jobs, try scanner.writeBack(source: path, requests: jobs.map(\.request), zone: zone, now: now)).map { ($0, $1) })
      } catch {
        return Run(done: done, outcomes: jobs.map { ($0, .failed(error.message)) })
      }
    }) { [self] (result: Result<Run, ChimeError>) in
      switch result {
      case .failure(let error):
        // Left queued: the next dismissal, or the next start, tries again.
        source.writing = false
        context.logger.error("calendar alarms not written back: the queue or their files are not known", metadata: ["calendar": "\(name)", "error": "\(error)"])
        checkWrittenBack()
      case .success(let run) where run.done.isEmpty:
        source.writing = false
        checkWrittenBack()
      case .success(let run):
        written(run, source: source)
      }
    }
  }

  /// After a run: failures logged and recorded, earlier failures of files written cleared, and
  /// the files written rescanned.
  private func written(_ run: Run, source: Source) {
    var failures: [String: String] = [:]
    var written: Set<String> = []
    for (job, outcome) in run.outcomes {
      let metadata: Logger.Metadata = ["calendar": "\(source.name)", "file": "\(job.request.file)", "id": "\(job.identifier)"]
      switch outcome {
      case .written:
        written.insert(job.request.file)
        context.logger.info("calendar alarm written back", metadata: metadata)
      case .unchanged(let why):
        context.logger.info("calendar alarm: nothing to write back (\(why))", metadata: metadata)
      case .failed(let why):
        failures[job.request.file] = why
        context.logger.warning("calendar alarm not written back: \(why)", metadata: metadata)
      }
    }
    let name = source.name
    // The next batch is read once this one has left the queue.
    context.writer.submit(RecordCalendarWriteBack(source: name, failures: failures, written: written.sorted(), done: run.done)) { [self] result in
      source.writing = false
      if case .failure(let error) = result {
        context.logger.error("calendar write-back not recorded", metadata: ["calendar": "\(name)", "error": "\(error)"])
      } else {
        source.writesQueued = true
      }
      writeBack(source)
    }
    // The files written are rescanned once: with their own inotify events, which come now
    // (not once chimed stops or the calendar is gone: no timer is left behind then).
    guard !written.isEmpty, !stopped, !source.removed else { return }
    source.changed.formUnion(written)
    settle(source)
  }
}
