import ChimeSystem
import ChimeCore
import Foundation

/// The user's Do Not Disturb setting as committed, read at start and replaced after each commit
/// of a change. Locked, because fires are prepared on the work pool and ask it there.
final class DoNotDisturbBook: Sendable {
  private let setting: Locked<DoNotDisturb>

  init(_ setting: DoNotDisturb) {
    self.setting = Locked(setting)
  }

  /// The setting as committed.
  var current: DoNotDisturb { setting.withLock { $0 } }

  /// A committed change.
  func replace(_ new: DoNotDisturb) {
    setting.withLock { $0 = new }
  }

  /// Where Do Not Disturb is on from at `instant` (nil: off); schedule times read in `zone`.
  func source(at instant: Instant, zone: Zone) -> DoNotDisturbSource? {
    current.isActive(at: instant, zone: zone)
  }
}
