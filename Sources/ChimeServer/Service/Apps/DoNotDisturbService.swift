import ChimeCore
import ChimeStore
import Logging

/// The user's Do Not Disturb: `SetDoNotDisturb` and `GetDoNotDisturb`, the desktop's own Do Not
/// Disturb followed, and the summary shown when it ends. The decision is ChimeCore's
/// (`DoNotDisturb`); the store records the setting, and the copy every delivery asks
/// (`DoNotDisturbBook`) follows each commit and each change of the desktop's state. Loop
/// thread only.
///
/// Whether it is on is looked at again after each change of the setting, each change of the
/// desktop, when the clock moves, and at the next instant the setting changes by itself (a
/// manual until, a window's end or start). When it is off after being on (or at start, for a
/// window that ended while chimed was not running), the quiet deliveries since the last
/// summary are counted from the store, marked summarized, and, when there were some and the
/// setting asks for it, shown in one summary popup.
final class DoNotDisturbService {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext
  private let zones: ZonePlanner
  private var timer: LoopTimer?
  /// Whether it was on at the last look (nil: not looked at since start).
  private var wasActive: Bool?
  /// At start, until the desktop's state is first known: a paused desktop must not read as off.
  private var waitingForDesktop = false
  private var stopped = false

  /// How long start waits for the desktop's state before looking without it.
  static let desktopWaitMillis: UInt64 = 3_000
  /// The longest the timer sleeps: a suspended machine or a clock set without notice is
  /// noticed within this.
  static let longestSleepMillis: Int64 = 15 * 60 * 1000

  init(context: ServiceContext, zones: ZonePlanner) {
    self.context = context
    self.zones = zones
  }

  /// Starts following the desktop through `desktop` (nil: none to follow), then looks.
  func start(desktop: (any DesktopQuietSource)?) {
    timer = LoopTimer(loop: context.loop) { [unowned self] in
      if waitingForDesktop {
        context.logger.info("the desktop's do not disturb state is not known yet; looking without it")
        waitingForDesktop = false
      }
      look()
    }
    guard let desktop else { return look() }
    waitingForDesktop = true
    timer?.arm(afterMillis: Self.desktopWaitMillis)
    let bound = LoopBound(self, loop: context.loop), loop = context.loop
    desktop.follow { state in
      _ = loop.execute { bound.value.desktopChanged(state) }
    }
  }

  func stop() {
    stopped = true
    timer?.close()
    timer = nil
  }

  /// The wall clock moved: a manual until or a window may have ended.
  func clockChanged() { look() }

  /// The notification server was paused, inhibited or resumed (nil: neither).
  func desktopChanged(_ state: DesktopQuiet?) {
    guard !stopped else { return }
    if state != context.doNotDisturb.desktop || waitingForDesktop {
      context.logger.info("desktop do not disturb", metadata: ["state": "\(state?.rawValue ?? "off")",
                                                              "followed": "\(context.doNotDisturb.current.followDesktop)"])
    }
    context.doNotDisturb.desktopChanged(state)
    waitingForDesktop = false
    look()
  }

  /// `GetDoNotDisturb`: answered from the committed copy, with the state now.
  func get(reply: @escaping Reply<DoNotDisturbReport>) {
    reply(.success(report()))
  }

  /// `SetDoNotDisturb`: validates the change, commits the new setting and answers the state.
  /// A manual until that has passed by now is dropped from the stored setting first. A change
  /// with nothing in it answers the state, writing nothing.
  ///
  /// Fails INVALID_ARGUMENT `DND_UNTIL_IN_PAST`, `INVALID_DND_SCHEDULE` or `INVALID_DND_DAYS`.
  func set(_ change: DoNotDisturbChange, reply: @escaping Reply<DoNotDisturbReport>) {
    let now = context.clock.now()
    do {
      try change.validate(now: now)
    } catch {
      return reply(.failure(error))
    }
    guard !change.isEmpty else { return reply(.success(report())) }
    let setting = change.applied(to: context.doNotDisturb.current.expired(at: now))
    context.writer.submit(SetDoNotDisturb(setting: setting, at: now)) { [self] result in
      reply(result.map { stored in
        context.doNotDisturb.replace(stored)
        let report = report()
        context.logger.info("do not disturb changed by the user",
                            metadata: ["active": "\(report.status.active)", "source": "\(report.status.source?.rawValue ?? "none")"])
        return report
      })
      if case .success = result { look() }
    }
  }

  private func report() -> DoNotDisturbReport {
    let now = context.clock.now(), zone = zones.zone
    let (setting, status) = context.doNotDisturb.status(at: now, zone: zone)
    return DoNotDisturbReport(setting: setting, status: status, timeZone: zone.identifier)
  }

  // MARK: Ends and summaries

  /// Looks at the state now: arms the timer for the setting's next change, and summarizes when
  /// it is off after being on (or at the first look).
  private func look() {
    guard !stopped, !waitingForDesktop else { return }
    let now = context.clock.now(), zone = zones.zone
    let (setting, status) = context.doNotDisturb.status(at: now, zone: zone)
    if let next = setting.nextChange(after: now, zone: zone) {
      let millis = min(max(next.unixMillis - now.unixMillis, 0), Self.longestSleepMillis)
      timer?.arm(afterMillis: UInt64(millis))
    } else {
      timer?.disarm()
    }
    let was = wasActive
    wasActive = status.active
    if !status.active && was != false { summarize(through: now, show: setting.summary) }
  }

  /// Counts the quiet deliveries not yet summarized and marks them summarized, in one commit
  /// submitted now (`SummarizeQuietDeliveries`): the writer commits in order, so what is
  /// counted is what was delivered before the end, not what a window the user opened again
  /// meanwhile delivered. Shown if `show` (the setting when it ended, not when the count comes
  /// back) and there were some.
  private func summarize(through now: Instant, show: Bool) {
    context.writer.submit(SummarizeQuietDeliveries()) { [weak self] (result: Result<QuietDeliveries, ChimeError>) in
      guard let self else { return }
      switch result {
      case .failure(let error):
        context.logger.warning("cannot count the quiet deliveries", metadata: ["error": "\(error)"])
      case .success(let quiet) where quiet.summary.isEmpty:
        break
      case .success(let quiet) where show && !stopped:
        context.logger.info("do not disturb ended", metadata: ["quiet_deliveries": "\(quiet.summary.total)"])
        context.presenter.presentSummary(quiet.summary, at: now)
      case .success(let quiet):
        context.logger.info("do not disturb ended; summary off", metadata: ["quiet_deliveries": "\(quiet.summary.total)"])
      }
    }
  }
}
