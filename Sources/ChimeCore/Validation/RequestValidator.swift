/// Checks a request before it is scheduled. Pure: no disk, no clock.
///
/// Every failure is INVALID_ARGUMENT with a stable reason and the field path.
public enum RequestValidator {
  public static func validate(_ request: NotificationRequest) throws(ChimeError) {
    try validateIdentifier(request.identifier, field: "request.identifier")
    try validate(request.content, field: "request.content")
    if let trigger = request.trigger {
      try validate(trigger, field: "request.trigger")
    }
    let policy = request.missedFire
    if policy.action == .deliverIfLateByLessThan {
      guard policy.maxLatenessSeconds.isFinite, policy.maxLatenessSeconds > 0 else {
        throw ChimeError(.invalidMissedFirePolicy, "max lateness must be a positive number of seconds", field: "request.missed_fire.max_lateness_seconds")
      }
    }
  }

  /// A request identifier: 1...256 bytes of UTF-8 with no control characters.
  public static func validateIdentifier(_ identifier: String, field: String) throws(ChimeError) {
    let count = identifier.utf8.count
    // Fast path: ASCII without C0 controls or DEL, the common case.
    if count > 0, count <= Limits.identifierMaxBytes, identifier.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
    guard count > 0 else {
      throw ChimeError(.invalidIdentifier, "identifier is empty", field: field)
    }
    guard count <= Limits.identifierMaxBytes else {
      throw ChimeError(.invalidIdentifier, "identifier is \(count) bytes; the limit is \(Limits.identifierMaxBytes)", field: field)
    }
    guard !identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw ChimeError(.invalidIdentifier, "identifier contains control characters", field: field)
    }
  }

  public static func validate(_ content: NotificationContent, field: String) throws(ChimeError) {
    // One call per field rather than a loop over an array of them: the array was built (and
    // freed) on every add.
    func text(_ name: StaticString, _ text: String) throws(ChimeError) {
      if text.utf8.count > Limits.textMaxBytes {
        throw ChimeError(.fieldTooLong, "\(name) is \(text.utf8.count) bytes; the limit is \(Limits.textMaxBytes)", field: "\(field).\(name)")
      }
      if text.containsNUL {
        throw ChimeError(.fieldContainsNUL, "\(name) contains a NUL character", field: "\(field).\(name)")
      }
    }
    try text("title", content.title)
    try text("subtitle", content.subtitle)
    try text("body", content.body)
    try text("category_identifier", content.categoryIdentifier)
    try text("thread_identifier", content.threadIdentifier)
    try text("target_content_identifier", content.targetContentIdentifier)
    try text("summary_argument", content.summaryArgument)
    try text("launch_image_name", content.launchImageName)
    if let localization = content.alertLocalization {
      try localization.validate(field: "\(field).alert_localization")
    }
    if let badge = content.badge, badge < 0 {
      throw ChimeError(.invalidBadge, "badge must be 0 or more (got \(badge))", field: "\(field).badge")
    }
    if let score = content.relevanceScore {
      guard score.isFinite, score >= 0, score <= 1 else {
        throw ChimeError(.invalidRelevanceScore, "relevance score must be within 0...1 (got \(score))", field: "\(field).relevance_score")
      }
    }
    if let sound = content.sound {
      try validate(sound, field: "\(field).sound")
    }
    if let ring = content.ring {
      try RingRule.validate(ring, sound: content.sound, level: content.interruptionLevel, field: field)
    }
    if !content.userInfoJSON.isEmpty {
      try validateUserInfo(content.userInfoJSON, field: "\(field).user_info_json")
    }
    guard content.attachments.count <= Limits.attachmentsMax else {
      throw ChimeError(.tooManyAttachments, "at most \(Limits.attachmentsMax) attachments", field: "\(field).attachments")
    }
    var seen = Set<String>()
    for (i, attachment) in content.attachments.enumerated() where !attachment.identifier.isEmpty {
      try validateIdentifier(attachment.identifier, field: "\(field).attachments[\(i)].identifier")
      guard seen.insert(attachment.identifier).inserted else {
        throw ChimeError(.duplicateAttachmentIdentifier, "attachment identifier \"\(attachment.identifier)\" is used twice", field: "\(field).attachments[\(i)].identifier")
      }
    }
    guard content.hasContent else {
      throw ChimeError(.notificationInvalidNoContent, "content has nothing to show: give a title, subtitle, body, attachment, sound or badge", field: field)
    }
  }

  public static func validate(_ sound: Sound, field: String) throws(ChimeError) {
    if let volume = sound.volume {
      guard sound.isCritical else {
        throw ChimeError(.invalidSoundVolume, "a volume is only for critical sounds (defaultCritical, criticalNamed)", field: "\(field).volume")
      }
      guard volume.isFinite, volume >= 0, volume <= 1 else {
        throw ChimeError(.invalidSoundVolume, "volume must be within 0...1 (got \(volume))", field: "\(field).volume")
      }
    }
    if sound.kind == .named || sound.kind == .criticalNamed {
      try SoundName.validate(sound.name, field: "\(field).name")
    }
  }

  /// User info must be a JSON object of at most `Limits.userInfoMaxBytes` bytes.
  public static func validateUserInfo(_ json: String, field: String) throws(ChimeError) {
    guard !json.isEmpty else { return }
    let bytes = json.utf8.count
    guard bytes <= Limits.userInfoMaxBytes else {
      throw ChimeError(.userInfoTooLarge, "user info is \(bytes) bytes; the limit is \(Limits.userInfoMaxBytes)", field: field)
    }
    switch JSONDocument.parseOrExplain(Array(json.utf8), maxDepth: Limits.userInfoMaxDepth) {
    case .success(.object):
      return
    case .success(let other):
      throw ChimeError(.invalidUserInfo, "user info must be a JSON object, not \(other.kindName)", field: field)
    case .failure(let error):
      throw ChimeError(.invalidUserInfo, "user info must be a JSON object: \(error.description)", field: field)
    }
  }

  public static func validate(_ trigger: Trigger, field: String) throws(ChimeError) {
    if let end = trigger.repeatEnd {
      let at = trigger.isCalendar ? "\(field).calendar.end" : "\(field).time_interval.end"
      guard trigger.repeats else {
        throw ChimeError(.invalidArgument, "an end (until, count) goes with a repeating trigger", field: at)
      }
      if let count = end.count, count < 1 {
        throw ChimeError(.invalidArgument, "count must be 1 or more (got \(count))", field: "\(at).count")
      }
    }
    switch trigger {
    case .timeInterval(let t):
      guard t.seconds.isFinite, t.seconds > 0 else {
        throw ChimeError(.invalidInterval, "time interval must be a positive number of seconds (got \(t.seconds))", field: "\(field).time_interval.seconds")
      }
      guard t.seconds <= Limits.maximumIntervalSeconds else {
        throw ChimeError(.invalidInterval, "time interval is longer than 100 years", field: "\(field).time_interval.seconds")
      }
      if t.repeats && t.seconds < Limits.minimumRepeatInterval {
        throw ChimeError(.invalidInterval, "a repeating time interval must be at least 60 seconds (got \(t.seconds))", field: "\(field).time_interval.seconds")
      }
    case .calendar(let c):
      try CalendarEngine.validate(c, field: "\(field).calendar")
    case .recurrence(let r):
      try RecurrenceEngine.validate(r, field: "\(field).recurrence")
    }
  }
}

/// Rules for a sound's file name.
public enum SoundName {
  /// A plain file name: not empty, no `/`, not `.` or `..`, no NUL, at most 255 bytes.
  public static func validate(_ name: String, field: String) throws(ChimeError) {
    let bytes = name.utf8.count
    if name.contains("/"), !name.containsNUL, let base = name.split(separator: "/").last, base != ".", base != ".." {
      // A path: say where sounds belong instead, and how to see the places searched.
      throw ChimeError(.invalidSoundName, """
        sound name must be a plain file name, not a path: copy \(base) into the app's sound directories (its container's \
        Library/Sounds, a group container's Library/Sounds, or the top of its bundle) and give "\(base)"; \
        `chime sound check \(base)` lists the directories searched
        """, field: field)
    }
    guard bytes > 0, bytes <= 255, !name.contains("/"), !name.containsNUL, name != ".", name != ".." else {
      throw ChimeError(.invalidSoundName, "sound name must be a plain file name (no '/', no '..', 1...255 bytes)", field: field)
    }
  }
}
