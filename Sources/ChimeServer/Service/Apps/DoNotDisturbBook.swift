import ChimeSystem
import ChimeCore

/// The user's Do Not Disturb setting as committed, read at start and replaced after each commit
/// of a change, with the desktop's own state as last seen. Locked, because fires are prepared
/// on the work pool and ask it there.
final class DoNotDisturbBook: Sendable {
  private let state: Locked<(setting: DoNotDisturb, desktop: DesktopQuiet?)>

  init(_ setting: DoNotDisturb) {
    state = Locked((setting, nil))
  }

  /// The setting as committed.
  var current: DoNotDisturb { state.withLock { $0.setting } }

  /// The notification server's own state as last seen (nil: not paused, or unknown).
  var desktop: DesktopQuiet? { state.withLock { $0.desktop } }

  /// A committed change.
  func replace(_ new: DoNotDisturb) {
    state.withLock { $0.setting = new }
  }

  /// The notification server was paused or resumed.
  func desktopChanged(_ new: DesktopQuiet?) {
    state.withLock { $0.desktop = new }
  }

  /// The status at `instant`, with a manual until that has passed dropped from the setting.
  func status(at instant: Instant, zone: Zone) -> (setting: DoNotDisturb, status: DoNotDisturbStatus) {
    let (setting, desktop) = state.withLock { ($0.setting.expired(at: instant), $0.desktop) }
    return (setting, setting.status(at: instant, zone: zone, desktop: desktop))
  }

  /// Where Do Not Disturb is on from at `instant` (nil: off); schedule times read in `zone`.
  func source(at instant: Instant, zone: Zone) -> DoNotDisturbSource? {
    status(at: instant, zone: zone).status.source
  }
}
