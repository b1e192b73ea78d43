import ChimeCore
import ChimeStore
import FoundationEssentials

/// The service as the scheduler sees it (`SchedulerHost`).
extension NotificationService: SchedulerHost {
  var floatingZone: TimeZone { zone }

  func stamped(_ fire: Fire) -> Fire {
    withExtensionSnapshot(fire)
  }

  func fired(_ key: ScheduleKey, _ outcome: Fire.Outcome) {
    if case .fired(let events, let delivered, _, let files) = outcome {
      published(events, files: files, delivered: delivered, app: key.app)
    }
  }
}
