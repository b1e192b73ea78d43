public import ChimeCore

/// Where the desktop's own Do Not Disturb is read: the notification server paused or
/// inhibited. chimed reads it on the presenter's session bus; tests give their own.
public protocol DesktopQuietSource: AnyObject, Sendable {
  /// Starts following: `changed` is called, from any thread, with the state once it is known
  /// and again at each change (nil: not paused, or no server).
  func follow(_ changed: @escaping @Sendable (DesktopQuiet?) -> Void)
}
