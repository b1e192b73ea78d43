public import ChimeCore

/// Values with every field set, and with every optional field left out.
public enum FullValues {
  public static func fullRequest(identifier: String = "tea-ready") -> NotificationRequest {
    var content = NotificationContent(title: "Tea ☕", subtitle: "Green", body: "Your tea is ready — enjoy 🍵")
    content.badge = 0
    content.sound = Sound(kind: .criticalNamed, name: "kettle.caf", volume: 0.25)
    content.userInfoJSON = #"{"cup":1,"names":["a","b"]}"#
    var options = AttachmentOptions()
    options.typeHint = "public.png"
    options.thumbnailHidden = true
    options.thumbnailClippingRect = ClipRect(x: 0.1, y: 0.2, width: 0.5, height: 0.25)
    options.thumbnailTime = 1.5
    var info = AttachmentInfo()
    info.storePath = "/var/lib/chime/att/1.png"
    info.type = "public.png"
    info.mediaClass = "image"
    info.bytes = 123_456
    info.width = 640
    info.height = 480
    info.durationSeconds = 2.5
    info.frameCount = 12
    content.attachments = [
      Attachment(identifier: "pic", path: "/home/u/pic.png", options: options, info: info),
      Attachment(path: "/home/u/plain.gif"),
    ]
    content.categoryIdentifier = "TEA"
    content.threadIdentifier = "kitchen"
    content.targetContentIdentifier = "cup-1"
    content.interruptionLevel = .timeSensitive
    content.relevanceScore = 0.75
    content.summaryArgument = "Kettle"
    content.launchImageName = "launch.png"
    content.ring = Ring(seconds: 300, autoSnooze: 2)

    var components = CalendarComponents()
    components.year = 2027
    components.month = 2
    components.day = 29
    components.hour = 2
    components.minute = 30
    components.second = 15
    components.weekday = 1
    components.weekdayOrdinal = -1
    components.weekOfMonth = 4
    components.weekOfYear = 9
    components.yearForWeekOfYear = 2027
    components.timeZone = "Europe/Berlin"
    let trigger = Trigger.calendar(CalendarTrigger(components: components, repeats: true, dstGap: .skip, dstOverlap: .both))

    return NotificationRequest(
      identifier: identifier,
      content: content,
      trigger: trigger,
      missedFire: MissedFirePolicy(action: .deliverIfLateByLessThan, maxLatenessSeconds: 90)
    )
  }

  public static let minimalRequest = NotificationRequest(identifier: "x", content: NotificationContent())

  public static func fullSoundResolution() -> SoundResolution {
    var s = SoundResolution(plays: .named)
    s.path = "/home/u/.local/share/chime/apps/tea/Library/Sounds/kettle.caf"
    s.reason = "SOUND_TOO_LONG"
    s.message = "longer than 30 s"
    s.container = "caf"
    s.codec = "ima4"
    s.channels = 2
    s.sampleRate = 44_100
    s.frames = 1_323_000
    s.durationSeconds = 30
    s.criticalDowngraded = true
    return s
  }

  public static func fullPending(identifier: String = "tea-ready") -> PendingRequest {
    var pending = PendingRequest(
      request: fullRequest(identifier: identifier),
      nextFire: Instant(unixMillis: 1_800_000_123_456),
      added: Instant(unixMillis: 1_799_999_000_000),
      sound: fullSoundResolution(),
      fireCount: 7,
      extensionAttributes: ExtensionAttributes(
        initialContentSizeRatio: 0.75, defaultContentHidden: true, overridesDefaultTitle: true, userInteractionEnabled: true,
        mediaButton: MediaPlayPauseButton(type: .default, frame: MediaButtonFrame(x: 1.5, y: 2, width: 30, height: 31), tintColor: "#00aa11"))
    )
    pending.snoozeCount = 2
    return pending
  }

  public static let minimalPending = PendingRequest(request: minimalRequest, nextFire: Instant(unixMillis: 0), added: Instant(unixMillis: 0))

  public static func fullDelivered(identifier: String = "tea-ready") -> DeliveredNotification {
    var delivered = DeliveredNotification(
      request: fullRequest(identifier: identifier),
      delivered: Instant(unixMillis: 1_800_000_200_000),
      due: Instant(unixMillis: 1_800_000_123_456),
      missed: true,
      sound: fullSoundResolution(),
      category: fullCategory(),
      extensionAttributes: ExtensionAttributes(
        initialContentSizeRatio: 0.75, defaultContentHidden: true, overridesDefaultTitle: true, userInteractionEnabled: true,
        mediaButton: MediaPlayPauseButton(type: .default, frame: MediaButtonFrame(x: 1.5, y: 2, width: 30, height: 31), tintColor: "#00aa11")),
      mediaPlayback: .paused
    )
    delivered.fireLatenessMicros = 76_544
    delivered.snoozeCount = 3
    delivered.ringEnded = .dismissed
    return delivered
  }

  /// A category with every field and option set, and a plain one.
  public static func fullCategory() -> NotificationCategory {
    var category = NotificationCategory(
      identifier: "event-invite",
      actions: [
        NotificationAction(identifier: "accept", title: "Accept ✓", options: [.authenticationRequired, .destructive, .foreground], icon: "emblem-ok"),
        NotificationAction(identifier: "comment", title: "Comment", textInput: .init(buttonTitle: "Send", placeholder: "Type here...")),
        NotificationAction(identifier: "empty-input", title: "Empty", textInput: .init()),
      ],
      intentIdentifiers: ["intent.a", "intent.b"],
      options: [.customDismissAction, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle],
      hiddenPreviewsBodyPlaceholder: "An invitation",
      summaryFormat: "%u more invitations")
    category.snoozeSeconds = [300, 3600]
    return category
  }

  public static let minimalCategory = NotificationCategory(identifier: "c")

  public static func fullResponse() -> NotificationResponse {
    var response = NotificationResponse(notificationIdentifier: "tea-ready", actionIdentifier: "comment", userText: "Running late ü",
                                        at: Instant(unixMillis: 1_800_000_400_000))
    response.snoozeSeconds = 300
    return response
  }

  public static let minimalDelivered = DeliveredNotification(request: minimalRequest, delivered: Instant(unixMillis: 0), due: Instant(unixMillis: 0))

  public static func fullEvent() -> Event {
    Event(
      cursor: 42,
      at: Instant(unixMillis: 1_800_000_300_000),
      kind: .pendingReplaced,
      identifiers: ["a", "", "ü"],
      delivered: fullDelivered(),
      pending: fullPending(),
      response: fullResponse(),
      note: "replaced by a newer request"
    )
  }
}
