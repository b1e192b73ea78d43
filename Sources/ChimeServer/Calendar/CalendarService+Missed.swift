import ChimeCore
import ChimeStore
import Logging

/// Alarms that fell due while chimed was stopped or the machine slept follow the scheduler's
/// missed-fire rule, with the calendar's grace as the request's policy (`CalendarAlarmRequest`:
/// deliver if late by less than `missedGraceMillis`): one within it is delivered once, marked
/// missed; older ones are skipped — by the scheduler (a `missed-skipped` event) or, for alarms
/// never planned before, by the scan that finds them — and summed up in one notification per
/// calendar ("12 calendar alarms were missed") rather than a flood; a summary that replaces one
/// still standing counts its alarms too (`MissedTally`).
extension CalendarService {
  /// The identifier of a calendar's summary of missed alarms: a new summary replaces the last.
  static let missedSummaryIdentifier = "calendar-missed"

  /// `count` more alarms of `source` were too late to show; the summary follows once they stop
  /// coming (a restart's are skipped in a few batches).
  func noteMissed(_ source: Source, count: Int) {
    guard count > 0, !stopped, !source.removed else { return }
    source.missed.note(count)
    if source.summary == nil {
      source.summary = LoopTimer(loop: context.loop) { [weak self, weak source] in
        guard let self, let source else { return }
        postMissedSummary(source)
      }
    }
    source.summary?.arm(afterMillis: configuration.summarySettleMillis)
  }

  /// Posts the summary of `source`'s missed alarms under its app, delivered at once through the
  /// scheduler like its alarms (authorization, settings and Do Not Disturb apply).
  func postMissedSummary(_ source: Source) {
    guard !stopped, !source.removed, let count = source.missed.post() else { return }
    let now = context.clock.now(), app = CalendarSource.appID(for: source.name)
    let content = Self.missedSummary(count: count, calendar: source.name, graceMillis: configuration.missedGraceMillis)
    let request = NotificationRequest(identifier: Self.missedSummaryIdentifier, content: content, trigger: CalendarAlarmRequest.trigger(at: now))
    let pending = PendingRequest(request: request, nextFire: Instant(unixMillis: now.unixMillis / 1000 * 1000), added: now,
                                 sound: SoundResolution(plays: .default))
    context.writer.submit(AddPending(app: app, pending: pending, at: now, limit: .max)) { [self] result in
      switch result {
      case .success(let outcome):
        context.published(outcome.events, files: outcome.discardedFiles, app: app, fromCalendar: true)
        context.scheduler.scheduled(ScheduleKey(due: pending.nextFire, app: app, identifier: request.identifier))
      case .failure(let error):
        context.logger.warning("missed calendar alarms not summed up", metadata: ["calendar": "\(source.name)", "count": "\(count)", "error": "\(error)"])
      }
    }
  }

  /// "12 calendar alarms were missed", and when.
  static func missedSummary(count: Int, calendar: String, graceMillis: Int64) -> NotificationContent {
    let minutes = graceMillis / 60_000
    let grace = minutes % 60 == 0 ? "\(minutes / 60) hour\(minutes == 60 ? "" : "s")" : "\(minutes) minute\(minutes == 1 ? "" : "s")"
    var content = NotificationContent(
      title: count == 1 ? "1 calendar alarm was missed" : "\(count) calendar alarms were missed",
      body: "\(calendar): due more than \(grace) ago, while chimed was stopped or the computer was asleep")
    content.threadIdentifier = calendar
    content.sound = .default
    return content
  }
}
