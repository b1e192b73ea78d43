/// A request to show a notification (UNNotificationRequest).
public struct NotificationRequest: Hashable, Sendable {
  /// Unique within the app; the same identifier replaces the earlier pending request.
  public var identifier: String
  public var content: NotificationContent
  /// nil delivers at once.
  public var trigger: Trigger?
  public var missedFire: MissedFirePolicy

  public init(identifier: String, content: NotificationContent, trigger: Trigger? = nil, missedFire: MissedFirePolicy = .deliver) {
    self.identifier = identifier
    self.content = content
    self.trigger = trigger
    self.missedFire = missedFire
  }
}

/// A scheduled request with its next fire instant.
public struct PendingRequest: Hashable, Sendable {
  public var request: NotificationRequest
  public var nextFire: Instant
  public var added: Instant
  public var sound: SoundResolution?
  /// How many times a repeating request has fired.
  public var fireCount: UInt64
  /// The attributes of the content extension live now for the content's category (nil when
  /// none is); filled in when read, never stored.
  public var extensionAttributes: ExtensionAttributes?
  /// > 0: a delivered notification snoozed until `nextFire` (`added`: when it was snoozed),
  /// delivered again then with this snooze count; not a request of its own.
  public var snoozeCount: Int = 0

  public init(request: NotificationRequest, nextFire: Instant, added: Instant, sound: SoundResolution? = nil, fireCount: UInt64 = 0,
              extensionAttributes: ExtensionAttributes? = nil) {
    self.request = request
    self.nextFire = nextFire
    self.added = added
    self.sound = sound
    self.fireCount = fireCount
    self.extensionAttributes = extensionAttributes
  }
}

/// A notification that was delivered (UNNotification).
public struct DeliveredNotification: Hashable, Sendable {
  public var request: NotificationRequest
  public var delivered: Instant
  /// The instant the trigger intended.
  public var due: Instant
  /// Delivered late because the daemon was down or the machine slept.
  public var missed: Bool
  public var sound: SoundResolution?
  /// The app's category named by the content's `categoryIdentifier`, as it was at delivery
  /// (nil when there was none): the actions a response may name. Replacing the app's
  /// categories later does not change it.
  public var category: NotificationCategory?
  /// The attributes of the content extension live for the category at delivery (nil when none
  /// was): a snapshot, like `category`.
  public var extensionAttributes: ExtensionAttributes?
  /// What its content extension last reported about its media (nil: nothing yet).
  public var mediaPlayback: MediaPlayback?
  /// Set on a pushed notification: which content was delivered and why.
  public var push: PushDelivery?
  /// For a delivery made by the daemon's timer: how long after `due` the timer woke to make it,
  /// in microseconds. Nil for a delivery without a trigger.
  public var fireLatenessMicros: Int64?
  /// Delivered under Do Not Disturb: recorded and streamed, but neither shown nor heard.
  public var quiet: Bool = false
  /// How many times it was snoozed before this delivery (0: not a snooze's return).
  public var snoozeCount: Int = 0
  /// Why its ring stopped; nil while it rings or when it has no ring.
  public var ringEnded: RingEnd?

  public init(request: NotificationRequest, delivered: Instant, due: Instant, missed: Bool = false, sound: SoundResolution? = nil,
              category: NotificationCategory? = nil, extensionAttributes: ExtensionAttributes? = nil, mediaPlayback: MediaPlayback? = nil) {
    self.extensionAttributes = extensionAttributes
    self.mediaPlayback = mediaPlayback
    self.request = request
    self.delivered = delivered
    self.due = due
    self.missed = missed
    self.sound = sound
    self.category = category
  }
}
