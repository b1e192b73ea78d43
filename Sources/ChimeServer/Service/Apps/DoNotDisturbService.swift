import ChimeCore
import ChimeStore
import Foundation
import Logging

/// The user's Do Not Disturb setting: `SetDoNotDisturb` and `GetDoNotDisturb`. The decision
/// is ChimeCore's (`DoNotDisturb`); the store records the setting, and the copy every delivery
/// asks (`DoNotDisturbBook`) follows each commit. Loop thread only.
final class DoNotDisturbService {
  typealias Reply<T> = ServiceContext.Reply<T>

  let context: ServiceContext
  private let zones: ZonePlanner

  init(context: ServiceContext, zones: ZonePlanner) {
    self.context = context
    self.zones = zones
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
    guard change.manual != nil || change.schedule != nil else { return reply(.success(report())) }
    let setting = change.applied(to: context.doNotDisturb.current.expired(at: now))
    context.writer.submit(SetDoNotDisturb(setting: setting, at: now)) { [self] result in
      reply(result.map { stored in
        context.doNotDisturb.replace(stored)
        let report = report()
        context.logger.info("do not disturb changed by the user",
                            metadata: ["active": "\(report.status.active)", "source": "\(report.status.source?.rawValue ?? "none")"])
        return report
      })
    }
  }

  private func report() -> DoNotDisturbReport {
    let now = context.clock.now(), zone = zones.zone
    let setting = context.doNotDisturb.current.expired(at: now)
    return DoNotDisturbReport(setting: setting, status: setting.status(at: now, zone: zone), timeZone: zone.identifier)
  }
}
