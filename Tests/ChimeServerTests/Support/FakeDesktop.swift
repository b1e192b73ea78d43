import ChimeCore
import ChimeServer
import ChimeSystem

/// A stand-in for the notification server's own Do Not Disturb: the test pauses and resumes it.
final class FakeDesktop: DesktopQuietSource, @unchecked Sendable {
  private let state = Locked<(quiet: DesktopQuiet?, changed: (@Sendable (DesktopQuiet?) -> Void)?)>((nil, nil))

  init(_ quiet: DesktopQuiet? = nil) {
    state.withLock { $0.quiet = quiet }
  }

  func follow(_ changed: @escaping @Sendable (DesktopQuiet?) -> Void) {
    let quiet = state.withLock { s in
      s.changed = changed
      return s.quiet
    }
    changed(quiet)
  }

  func set(_ quiet: DesktopQuiet?) {
    let changed = state.withLock { s in
      s.quiet = quiet
      return s.changed
    }
    changed?(quiet)
  }
}
