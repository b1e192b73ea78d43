import ChimeCore

/// ChimeCore values as the `a{sv}` dictionaries the D-Bus interface answers and signals: a
/// listed request or notification has `identifier` and the keys `Add` takes (those not at
/// their defaults), plus `next-fire` or `delivered-at` (Unix milliseconds).
enum DBusRecords {
  typealias Pairs = [(String, BusValue)]

  static func content(_ c: NotificationContent) -> Pairs {
    var p: Pairs = [("title", .string(c.title)), ("subtitle", .string(c.subtitle)), ("body", .string(c.body))]
    if let badge = c.badge { p.append(("badge", .int32(Int32(clamping: badge)))) }
    if let sound = c.sound, sound.kind != .none {
      let named = sound.kind == .named || sound.kind == .criticalNamed
      p.append(("sound", .string(named ? sound.name : "default")))
      if sound.isCritical { p.append(("critical", .boolean(true))) }
      if let volume = sound.volume { p.append(("volume", .double(volume))) }
    }
    if !c.categoryIdentifier.isEmpty { p.append(("category", .string(c.categoryIdentifier))) }
    if !c.threadIdentifier.isEmpty { p.append(("thread", .string(c.threadIdentifier))) }
    if let level = DBusArguments.interruptionLevels.first(where: { $0.1 == c.interruptionLevel }) {
      p.append(("interruption-level", .string(level.0)))
    }
    if let relevance = c.relevanceScore { p.append(("relevance", .double(relevance))) }
    if !c.userInfoJSON.isEmpty { p.append(("user-info", .string(c.userInfoJSON))) }
    if !c.targetContentIdentifier.isEmpty { p.append(("target-content", .string(c.targetContentIdentifier))) }
    if !c.summaryArgument.isEmpty { p.append(("summary-argument", .string(c.summaryArgument))) }
    if let ring = c.ring {
      p.append(("ring", .uint32(ring.seconds)))
      if ring.autoSnooze > 0 { p.append(("ring-auto-snooze", .uint32(ring.autoSnooze))) }
    }
    if !c.attachments.isEmpty { p.append(("attachments", .vardicts(c.attachments.map(attachment)))) }
    return p
  }

  static func attachment(_ a: Attachment) -> Pairs {
    var p: Pairs = [("identifier", .string(a.identifier))]
    if !a.options.typeHint.isEmpty { p.append(("type-hint", .string(a.options.typeHint))) }
    if a.options.thumbnailHidden { p.append(("thumbnail-hidden", .boolean(true))) }
    if let time = a.options.thumbnailTime { p.append(("thumbnail-time", .double(time))) }
    if let r = a.options.thumbnailClippingRect {
      p.append(("clip", .structure([.double(r.x), .double(r.y), .double(r.width), .double(r.height)])))
    }
    // Where the daemon keeps its copy, and what it found the file to be.
    if let info = a.info {
      p.append(("path", .string(info.storePath)))
      if !info.type.isEmpty { p.append(("type", .string(info.type))) }
    } else {
      p.append(("path", .string(a.path)))
    }
    return p
  }

  static func trigger(_ t: Trigger?) -> Pairs {
    switch t {
    case nil:
      return []
    case .timeInterval(let i):
      return [("interval", .double(i.seconds)), ("repeats", .boolean(i.repeats))] + end(i.end)
    case .calendar(let c):
      return [("calendar", .vardict(calendar(c))), ("repeats", .boolean(c.repeats))] + end(c.end)
    case .recurrence(let r):
      // The rule, start, zone and exclusions as they were given.
      var p: Pairs = [("rule", .string(r.ruleText)), ("start", .string(r.startText))]
      if let zone = r.timeZone { p.append(("time-zone", .string(zone))) }
      if !r.exclusionTexts.isEmpty { p.append(("exclude", .strings(r.exclusionTexts))) }
      return [("recurrence", .vardict(p)), ("repeats", .boolean(true))]
    }
  }

  static func end(_ end: RepeatEnd?) -> Pairs {
    var p: Pairs = []
    if let until = end?.until { p.append(("until", .int64(until.unixMillis))) }
    if let count = end?.count { p.append(("count", .uint32(UInt32(clamping: count)))) }
    return p
  }

  static func calendar(_ t: CalendarTrigger) -> Pairs {
    let c = t.components
    var p: Pairs = []
    let ints: [(String, Int?)] = [
      ("year", c.year), ("month", c.month), ("day", c.day), ("hour", c.hour), ("minute", c.minute), ("second", c.second),
      ("weekday", c.weekday), ("weekday-ordinal", c.weekdayOrdinal), ("week-of-month", c.weekOfMonth),
      ("week-of-year", c.weekOfYear), ("year-for-week-of-year", c.yearForWeekOfYear),
    ]
    for case (let key, let value?) in ints { p.append((key, .int32(Int32(clamping: value)))) }
    if let weekdays = c.weekdays { p.append(("weekdays", .array(element: "i", weekdays.map { .int32(Int32(clamping: $0)) }))) }
    if let zone = c.timeZone { p.append(("time-zone", .string(zone))) }
    p.append(("dst-gap", .string(t.dstGap == .skip ? "skip" : "next-valid")))
    p.append(("dst-overlap", .string(t.dstOverlap == .both ? "both" : "first")))
    return p
  }

  static func request(_ r: NotificationRequest) -> Pairs {
    [("identifier", .string(r.identifier))] + content(r.content) + trigger(r.trigger)
  }

  /// A snoozed notification also has `snooze-count` (u) and `snoozed-at` (x); its `next-fire`
  /// is when it comes back.
  static func pending(_ p: PendingRequest) -> Pairs {
    var pairs = request(p.request) + [("next-fire", .int64(p.nextFire.unixMillis))]
    if p.snoozeCount > 0 {
      pairs += [("snooze-count", .uint32(UInt32(clamping: p.snoozeCount))), ("snoozed-at", .int64(p.added.unixMillis))]
    }
    return pairs
  }

  static func delivered(_ d: DeliveredNotification) -> Pairs {
    var pairs = request(d.request) + [("delivered-at", .int64(d.delivered.unixMillis)), ("missed", .boolean(d.missed))]
    if d.snoozeCount > 0 { pairs.append(("snooze-count", .uint32(UInt32(clamping: d.snoozeCount)))) }
    if d.quiet { pairs.append(("quiet", .boolean(true))) }
    return pairs
  }

  /// `Add`'s result: `identifier`, `replaced`, and `next-fire`, or `delivered-at` when it had no trigger.
  static func added(_ r: AddResult) -> Pairs {
    var p: Pairs = [("identifier", .string(r.pending.request.identifier)), ("replaced", .boolean(r.replaced))]
    if let delivered = r.delivered {
      p.append(("delivered-at", .int64(delivered.delivered.unixMillis)))
    } else {
      p.append(("next-fire", .int64(r.pending.nextFire.unixMillis)))
    }
    return p
  }

  static func fireDate(_ f: FireDate) -> Pairs {
    var p: Pairs = [("at", .int64(f.instant.unixMillis)), ("utc-offset", .int32(Int32(clamping: f.utcOffsetSeconds))),
                    ("time-zone", .string(f.zoneIdentifier)), ("local", .string(f.localISO8601))]
    if let note = f.dstNote { p.append(("dst-note", .string(note))) }
    return p
  }

  static func category(_ c: NotificationCategory) -> Pairs {
    var p: Pairs = [("identifier", .string(c.identifier)), ("actions", .vardicts(c.actions.map(action)))]
    if !c.intentIdentifiers.isEmpty { p.append(("intent-identifiers", .strings(c.intentIdentifiers))) }
    p.append(("options", .strings(DBusArguments.categoryOptions.filter { c.options.contains($0.1) }.map(\.0))))
    if !c.hiddenPreviewsBodyPlaceholder.isEmpty { p.append(("hidden-previews-body-placeholder", .string(c.hiddenPreviewsBodyPlaceholder))) }
    if !c.summaryFormat.isEmpty { p.append(("summary-format", .string(c.summaryFormat))) }
    if !c.snoozeSeconds.isEmpty {
      p.append(("snooze-seconds", .array(element: "i", c.snoozeSeconds.map { .int32(Int32(clamping: $0)) })))
    }
    return p
  }

  static func action(_ a: NotificationAction) -> Pairs {
    var p: Pairs = [("identifier", .string(a.identifier)), ("title", .string(a.title)),
                    ("options", .strings(DBusArguments.actionOptions.filter { a.options.contains($0.1) }.map(\.0)))]
    if !a.icon.isEmpty { p.append(("icon", .string(a.icon))) }
    if let input = a.textInput {
      p.append(("text-input", .vardict([("button-title", .string(input.buttonTitle)), ("placeholder", .string(input.placeholder))])))
    }
    return p
  }

  static func settings(_ s: NotificationSettings) -> Pairs {
    [
      ("status", .string(s.status.name)), ("alert", .boolean(s.alert)), ("sound", .boolean(s.sound)), ("badge", .boolean(s.badge)),
      ("critical-alert", .boolean(s.criticalAlert)), ("time-sensitive", .boolean(s.timeSensitive)), ("car-play", .boolean(s.carPlay)),
      ("announcement", .boolean(s.announcement)), ("provides-app-notification-settings", .boolean(s.providesAppNotificationSettings)),
      ("badge-count", .int32(Int32(clamping: s.badgeCount))),
    ]
  }

  /// `GetDoNotDisturb`'s and `SetDoNotDisturb`'s state.
  static func doNotDisturb(_ r: DoNotDisturbReport) -> Pairs {
    let schedule = r.setting.schedule
    return [
      ("active", .boolean(r.status.active)), ("source", .string(r.status.source?.rawValue ?? "")),
      ("until", .int64(r.status.until?.unixMillis ?? 0)), ("next-start", .int64(r.status.nextStart?.unixMillis ?? 0)),
      ("desktop", .string(r.status.desktop?.rawValue ?? "")),
      ("manual", .boolean(r.setting.manual != nil)), ("manual-until", .int64(r.setting.manual?.until?.unixMillis ?? 0)),
      ("schedule", .string(schedule?.windowText ?? "")), ("days", .string(schedule.map { $0.days == .everyDay ? "all" : $0.days.text } ?? "")),
      ("follow-desktop", .boolean(r.setting.followDesktop)), ("summary", .boolean(r.setting.summary)),
      ("time-zone", .string(r.timeZone)),
    ]
  }

  static func responded(_ r: RespondResult) -> Pairs {
    [("routed-to", .strings(r.routedTo)), ("removed", .boolean(r.removed))]
  }

  static func pushed(_ r: PushResult) -> Pairs {
    [("identifier", .string(r.delivered.request.identifier)), ("delivered-at", .int64(r.delivered.delivered.unixMillis)),
     ("replaced", .boolean(r.replaced))]
  }

  /// A `Response` signal's details: `user-text` and `at` (Unix ms).
  static func responseDetails(_ r: NotificationResponse) -> Pairs {
    [("user-text", .string(r.userText)), ("at", .int64(r.at.unixMillis))]
  }
}
