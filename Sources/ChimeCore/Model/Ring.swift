/// An alarm's ring: once delivered, the notification's sound repeats until the user answers or
/// dismisses it, it is removed, or `seconds` pass (`RingRule` holds the limits and decisions).
public struct Ring: Hashable, Sendable {
  /// How long the sound may repeat, from the delivery: `RingRule.minimumSeconds` ...
  /// `RingRule.maximumSeconds`.
  public var seconds: UInt32
  /// When the ring runs out unanswered, snooze the notification again while it has been
  /// snoozed fewer than this many times (0: never; at most `RingRule.maximumAutoSnoozes`).
  public var autoSnooze: UInt32

  public init(seconds: UInt32, autoSnooze: UInt32 = 0) {
    self.seconds = seconds
    self.autoSnooze = autoSnooze
  }
}

/// Why a ring stopped: a delivered notification's `ringEnded`, and the note of a `ring-ended`
/// event.
public enum RingEnd: String, Hashable, Sendable, CaseIterable {
  /// A response was recorded (an action, the default action, or the dismiss action).
  case answered
  /// Closed on the desktop without a response.
  case dismissed
  /// Left the delivered list (`RemoveDelivered`, remove all, or delivered again).
  case removed
  /// Its duration passed unanswered.
  case timedOut = "timed-out"
}
