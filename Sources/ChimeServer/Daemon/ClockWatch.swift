import Logging

/// Watches for what moves due times under the scheduler: the wall clock being set (a timerfd
/// that fires on clock changes) and the zone changing (looked at every 10 s, since a new
/// /etc/localtime sets no clock). Loop thread only.
final class ClockWatch {
  private var wallClock: WallClockWatcher?
  private var zoneTimer: LoopTimer?

  init(loop: EventLoop, service: NotificationService, logger: Logger, zonePollMillis: UInt64 = 10_000) {
    wallClock = WallClockWatcher(loop: loop) { [unowned service] in
      logger.notice("wall clock was set; re-planning due times")
      service.checkTimeZone()
      service.clockChanged()
    }
    let zoneTimer = LoopTimer(loop: loop) { [unowned service] in service.checkTimeZone() }
    zoneTimer.arm(afterMillis: zonePollMillis, repeatMillis: zonePollMillis)
    self.zoneTimer = zoneTimer
  }

  func close() {
    wallClock?.close()
    wallClock = nil
    zoneTimer?.close()
    zoneTimer = nil
  }
}
