import ChimeCore

/// The desktop's own Do Not Disturb read on the freedesktop presenter's session bus (nil when
/// that presenter is off). Followed from the loop thread, where the service starts.
final class PresenterDesktopQuiet: DesktopQuietSource, @unchecked Sendable {
  private let presenters: LoopBound<PresenterSet>

  init?(_ presenters: PresenterSet, loop: EventLoop) {
    guard presenters.followsDesktop else { return nil }
    self.presenters = LoopBound(presenters, loop: loop)
  }

  func follow(_ changed: @escaping @Sendable (DesktopQuiet?) -> Void) {
    presenters.value.followDesktop(changed)
  }
}
