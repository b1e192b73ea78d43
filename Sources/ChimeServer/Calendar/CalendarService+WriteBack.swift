import ChimeCore
import ChimeStore
import Logging

/// Dismissals and snoozes written back into the items (RFC 9074), so every device that syncs
/// the calendar sees them. Whatever takes a calendar's notification off the list — the
/// desktop's close or Dismiss, `chime delivered --remove`, a response, a snooze — arrives here
/// as its committed event (`CalendarAlarmObserver`); the calendar's own withdrawals do not.
/// Per calendar one helper run at a time, on the work pool, never inside a transaction: the
/// store's rows say which alarm of which file each notification is, `chime-calendar
/// write-back` edits the files' current bytes, and the files written are rescanned once with
/// the changes inotify reports for them (one rescan, not a storm). A snooze written into the
/// item replaces chimed's own: the rescan finds the snoozed alarm acknowledged, ends the
/// snooze, and schedules the item's snooze alarm instead; one that cannot be written stays
/// chimed's. Failures are logged and listed with the file's errors (`chime calendar list`).
extension CalendarService: CalendarAlarmObserver {
  func calendarEvents(_ events: [Event], app: String) {
    // Also while chimed stops: a response answered then is still written back.
    guard let source = sources[String(app.dropFirst(CalendarSource.appIDPrefix.count))] else { return }
    for event in events {
      switch event.kind {
      case .deliveredRemoved:
        source.writes += event.identifiers.map { ($0, .dismiss) }
      case .snoozed:
        guard let until = event.pending?.nextFire else { continue }
        source.writes += event.identifiers.map { ($0, .snooze(until: until)) }
      case .missedSkipped:
        noteMissed(source, count: event.identifiers.count)
      default:
        continue
      }
    }
    writeBack(source)
  }

  /// One request as the store's row describes its alarm.
  private struct Job: Sendable {
    var identifier: String
    var request: AlarmWriteBack.Request
  }

  /// Runs `done` once no dismissal or snooze is waiting to be written back or being written.
  func whenWrittenBack(_ done: @escaping () -> Void) {
    writtenBackWaiters.append(done)
    checkWrittenBack()
  }

  private func checkWrittenBack() {
    guard !writtenBackWaiters.isEmpty, !sources.values.contains(where: { $0.writing || !$0.writes.isEmpty }) else { return }
    let waiters = writtenBackWaiters
    writtenBackWaiters = []
    for done in waiters { done() }
  }

  /// Writes the next batch of `source`'s queued dismissals and snoozes, unless a run is going.
  /// (An unregistered calendar's rows are gone: nothing of it is written.)
  func writeBack(_ source: Source) {
    defer { checkWrittenBack() }
    guard !source.writing, !source.writes.isEmpty else { return }
    let batch = Array(source.writes.prefix(configuration.writeBatch))
    source.writes.removeFirst(batch.count)
    guard let scanner else {
      return context.logger.warning("calendar alarm not written back: no \(CalendarScanner.name) helper",
                                    metadata: ["calendar": "\(source.name)", "count": "\(batch.count)"])
    }
    source.writing = true
    let database = context.database, name = source.name, path = source.path, zone = zones.zone, now = context.clock.now()
    context.loop.runBlocking(catching: { () throws(ChimeError) -> [(job: Job, outcome: AlarmWriteBack.Outcome)] in
      let rows = try database.calendarAlarms(source: name, identifiers: batch.map(\.identifier))
      var jobs: [Job] = []
      for (identifier, kind) in batch {
        // Not a calendar alarm (the missed alarms' summary), or forgotten since.
        guard let row = rows.first(where: { $0.identifier == identifier }),
              let recurrence = CalendarScanLine.recurrence(decoding: row.origin.recurrence) else { continue }
        jobs.append(Job(identifier: identifier, request: AlarmWriteBack.Request(
          file: row.file, uid: row.origin.uid, recurrenceID: recurrence, at: row.at, repeatIndex: row.origin.repeatIndex, kind: kind)))
      }
      guard !jobs.isEmpty else { return [] }
      do throws(ChimeError) {
        return zip(jobs, try scanner.writeBack(source: path, requests: jobs.map(\.request), zone: zone, now: now)).map { ($0, $1) }
      } catch {
        return jobs.map { ($0, .failed(error.message)) }
      }
    }) { [self] (result: Result<[(job: Job, outcome: AlarmWriteBack.Outcome)], ChimeError>) in
      source.writing = false
      switch result {
      case .failure(let error):
        context.logger.error("calendar alarms not written back: their files are not known", metadata: ["calendar": "\(name)", "error": "\(error)"])
      case .success(let done):
        written(done, source: source)
      }
      writeBack(source)
    }
  }

  /// After a run: failures logged and recorded, earlier failures of files written cleared, and
  /// the files written rescanned.
  private func written(_ done: [(job: Job, outcome: AlarmWriteBack.Outcome)], source: Source) {
    var failures: [String: String] = [:]
    var written: Set<String> = []
    for (job, outcome) in done {
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
    guard !failures.isEmpty || !written.isEmpty else { return }
    let name = source.name
    context.writer.submit(RecordCalendarWriteBack(source: name, failures: failures, written: written.sorted())) { [self] result in
      if case .failure(let error) = result {
        context.logger.error("calendar write-back not recorded", metadata: ["calendar": "\(name)", "error": "\(error)"])
      }
    }
    // The files written are rescanned once: with their own inotify events, which come now.
    guard !written.isEmpty else { return }
    source.changed.formUnion(written)
    settle(source)
  }
}
