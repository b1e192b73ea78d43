import ChimeCore
import ChimeWire

/// Turns a D-Bus caller's arguments into the ChimeCore values the service takes. Keys are
/// lowercase with hyphens (as the notification portal's); their names, types and meaning are
/// in deploy/dbus/io.github.chime.Chime1.xml. Checks only what D-Bus types cannot say (a key's
/// value type, unknown keys, one trigger kind): the service validates the values themselves,
/// with the same reasons every transport gets.
enum DBusArguments {
  // MARK: Add

  /// `Add(s identifier, a{sv} content, a{sv} trigger, a{sv} options)`.
  static func request(identifier: String, content: BusValue, trigger: BusValue, options: BusValue) throws(ChimeError) -> NotificationRequest {
    var request = NotificationRequest(identifier: identifier, content: try self.content(content), trigger: try self.trigger(trigger))
    var o = try BusDictionary(options, path: "options")
    let action: MissedFirePolicy.Action? = try o.choice("missed-fire", [
      ("deliver", .deliver), ("skip", .skip), ("deliver-if-late", .deliverIfLateByLessThan),
    ])
    let lateness = try o.double("max-lateness")
    if action != nil || lateness != nil {
      request.missedFire = MissedFirePolicy(action: action ?? .deliver, maxLatenessSeconds: lateness ?? 0)
    }
    try o.finish()
    return request
  }

  static func content(_ value: BusValue) throws(ChimeError) -> NotificationContent {
    var d = try BusDictionary(value, path: "content")
    var c = NotificationContent()
    c.title = try d.string("title") ?? ""
    c.subtitle = try d.string("subtitle") ?? ""
    c.body = try d.string("body") ?? ""
    c.badge = try d.integer("badge", in: Int64(Int32.min)...Int64(Int32.max))
    let soundName = try d.string("sound")
    let critical = try d.bool("critical") ?? false
    let volume = try d.double("volume")
    if let soundName, !soundName.isEmpty {
      let isDefault = soundName == "default"
      c.sound = Sound(kind: critical ? (isDefault ? .defaultCritical : .criticalNamed) : (isDefault ? .default : .named),
                      name: isDefault ? "" : soundName, volume: volume)
    } else if critical || volume != nil {
      // A critical alert or a volume without a name: the default sound, as Apple's
      // defaultCriticalSound(withAudioVolume:).
      c.sound = Sound(kind: critical ? .defaultCritical : .default, volume: volume)
    }
    c.categoryIdentifier = try d.string("category") ?? ""
    c.threadIdentifier = try d.string("thread") ?? ""
    if let level: InterruptionLevel = try d.choice("interruption-level", interruptionLevels) { c.interruptionLevel = level }
    c.relevanceScore = try d.double("relevance")
    c.userInfoJSON = try d.string("user-info") ?? ""
    c.targetContentIdentifier = try d.string("target-content") ?? ""
    c.summaryArgument = try d.string("summary-argument") ?? ""
    if let seconds = try d.integer("ring", in: 0...Int64(UInt32.max)) {
      c.ring = Ring(seconds: UInt32(seconds), autoSnooze: UInt32(try d.integer("ring-auto-snooze", in: 0...Int64(UInt32.max)) ?? 0))
    } else if try d.integer("ring-auto-snooze", in: 0...Int64(UInt32.max)) != nil {
      throw ChimeError(.invalidRing, "ring-auto-snooze needs ring", field: d.field("ring-auto-snooze"))
    }
    if let attachments = try d.dictionaries("attachments") {
      c.attachments = try attachments.map { a throws(ChimeError) in try attachment(a) }
    }
    try d.finish()
    return c
  }

  static func attachment(_ given: BusDictionary) throws(ChimeError) -> Attachment {
    var d = given
    guard let path = try d.string("path") else {
      throw ChimeError(.attachmentInvalidURL, "an attachment needs a path", field: d.field("path"))
    }
    var options = AttachmentOptions()
    options.typeHint = try d.string("type-hint") ?? ""
    options.thumbnailHidden = try d.bool("thumbnail-hidden") ?? false
    options.thumbnailTime = try d.double("thumbnail-time")
    if let (x, y, w, h) = try d.doubles4("clip") { options.thumbnailClippingRect = ClipRect(x: x, y: y, width: w, height: h) }
    let attachment = Attachment(identifier: try d.string("identifier") ?? "", path: path, options: options)
    try d.finish()
    return attachment
  }

  static let interruptionLevels: [(String, InterruptionLevel)] = [
    ("passive", .passive), ("active", .active), ("time-sensitive", .timeSensitive), ("critical", .critical),
  ]

  // MARK: Triggers

  /// An empty dictionary is no trigger: the request is delivered at once.
  static func trigger(_ value: BusValue, path: String = "trigger") throws(ChimeError) -> Trigger? {
    var d = try BusDictionary(value, path: path)
    let interval = try d.double("interval")
    let repeats = try d.bool("repeats") ?? false
    let calendar = try d.dictionary("calendar")
    let recurrence = try d.dictionary("recurrence")
    let until = try d.integer("until", in: Int64.min...Int64.max)
    let count = try d.integer("count", in: 1...Int64(UInt32.max))
    try d.finish()
    // until (x, Unix ms) and count (u) end a repeating interval or calendar trigger.
    var end: RepeatEnd?
    if until != nil || count != nil {
      guard repeats, interval != nil || calendar != nil else {
        throw ChimeError(.invalidArgument, "until and count end a repeating interval or calendar trigger", field: "\(path).\(until != nil ? "until" : "count")")
      }
      end = RepeatEnd(until: until.map { Instant(unixMillis: $0) }, count: count.map { Int($0) })
    }
    switch (interval, calendar, recurrence) {
    case (let seconds?, nil, nil):
      return .timeInterval(TimeIntervalTrigger(seconds: seconds, repeats: repeats, end: end))
    case (nil, let components?, nil):
      var trigger = try self.calendar(components, repeats: repeats)
      trigger.end = end
      return .calendar(trigger)
    case (nil, nil, let rule?):
      return .recurrence(try self.recurrence(rule, path: "\(path).recurrence"))
    case (nil, nil, nil):
      guard !repeats else {
        throw ChimeError(.invalidArgument, "repeats needs an interval, a calendar or a recurrence", field: "\(path).repeats")
      }
      return nil
    default:
      throw ChimeError(.invalidArgument, "give one of interval, calendar and recurrence", field: path)
    }
  }

  /// `recurrence` (a{sv}): rule, start (a local wall time), time-zone (absent: floating) and
  /// exclude (as: local wall times), read as `chime add --rrule` reads them.
  static func recurrence(_ given: BusDictionary, path: String) throws(ChimeError) -> Recurrence {
    var d = given
    guard let rule = try d.string("rule"), let start = try d.string("start") else {
      throw ChimeError(.invalidArgument, "a recurrence needs rule and start", field: path)
    }
    let zone = try d.string("time-zone")
    let exclusions = try d.strings("exclude") ?? []
    try d.finish()
    return try Recurrence(rule: rule, start: start, timeZone: zone, exclusions: exclusions, field: path)
  }

  static func calendar(_ given: BusDictionary, repeats: Bool) throws(ChimeError) -> CalendarTrigger {
    var d = given
    var c = CalendarComponents()
    let range = Int64(Int32.min)...Int64(Int32.max)
    func int(_ key: String) throws(ChimeError) -> Int? { try d.integer(key, in: range).map { Int($0) } }
    c.year = try int("year")
    c.month = try int("month")
    c.day = try int("day")
    c.hour = try int("hour")
    c.minute = try int("minute")
    c.second = try int("second")
    c.weekday = try int("weekday")
    c.weekdays = try d.integers("weekdays", in: 1...7).map { $0.map { Int($0) } }
    c.weekdayOrdinal = try int("weekday-ordinal")
    c.weekOfMonth = try int("week-of-month")
    c.weekOfYear = try int("week-of-year")
    c.yearForWeekOfYear = try int("year-for-week-of-year")
    c.timeZone = try d.string("time-zone")
    let gap: DSTGapPolicy = try d.choice("dst-gap", [("next-valid", .nextValid), ("skip", .skip)]) ?? .nextValid
    let overlap: DSTOverlapPolicy = try d.choice("dst-overlap", [("first", .first), ("both", .both)]) ?? .first
    try d.finish()
    return CalendarTrigger(components: c, repeats: repeats, dstGap: gap, dstOverlap: overlap)
  }

  /// `NextTriggerDates(a{sv} trigger, a{sv} options)`: options `count` and `after` (Unix ms).
  static func nextTriggerDates(trigger: BusValue, options: BusValue) throws(ChimeError) -> WireCodec.NextTriggerDatesRequest {
    let trigger = try self.trigger(trigger)
    var o = try BusDictionary(options, path: "options")
    let count = try o.integer("count", in: 0...Int64(Int32.max)) ?? 0
    let after = try o.integer("after", in: Int64.min...Int64.max).map { Instant(unixMillis: $0) }
    try o.finish()
    return WireCodec.NextTriggerDatesRequest(trigger: trigger, after: after, count: Int(count))
  }

  // MARK: Listings

  /// `GetPending` / `GetDelivered` options: `limit`, the most items answered (all by default,
  /// up to `listLimitMax`).
  static func listLimit(_ options: BusValue) throws(ChimeError) -> Int {
    var o = try BusDictionary(options, path: "options")
    let limit = try o.integer("limit", in: 1...Int64(listLimitMax)) ?? Int64(listLimitMax)
    try o.finish()
    return Int(limit)
  }

  /// The most items one listing answers: keeps a reply far below the bus's message limit.
  static let listLimitMax = 10_000

  // MARK: Categories

  static func categories(_ value: BusValue) throws(ChimeError) -> [NotificationCategory] {
    guard case .array("a{sv}", let items) = value else { throw BusDictionary.wrongType("categories", want: "aa{sv}", got: value) }
    var result: [NotificationCategory] = []
    for (i, item) in items.enumerated() {
      var d = try BusDictionary(item, path: "categories[\(i)]")
      var category = NotificationCategory(identifier: try d.string("identifier") ?? "")
      if let actions = try d.dictionaries("actions") {
        category.actions = try actions.map { a throws(ChimeError) in try action(a) }
      }
      category.intentIdentifiers = try d.strings("intent-identifiers") ?? []
      category.options = try optionSet(d.strings("options"), categoryOptions, field: d.field("options"))
      category.hiddenPreviewsBodyPlaceholder = try d.string("hidden-previews-body-placeholder") ?? ""
      category.summaryFormat = try d.string("summary-format") ?? ""
      // Checked by CategoryValidator (INVALID_SNOOZE_DURATION names the bounds).
      category.snoozeSeconds = try d.integers("snooze-seconds", in: Int64(Int32.min)...Int64(Int32.max)) ?? []
      try d.finish()
      result.append(category)
    }
    return result
  }

  static func action(_ given: BusDictionary) throws(ChimeError) -> NotificationAction {
    var d = given
    var action = NotificationAction(identifier: try d.string("identifier") ?? "", title: try d.string("title") ?? "")
    action.options = try optionSet(d.strings("options"), actionOptions, field: d.field("options"))
    action.icon = try d.string("icon") ?? ""
    if var input = try d.dictionary("text-input") {
      action.textInput = NotificationAction.TextInput(buttonTitle: try input.string("button-title") ?? "",
                                                      placeholder: try input.string("placeholder") ?? "")
      try input.finish()
    }
    try d.finish()
    return action
  }

  static let categoryOptions: [(String, NotificationCategory.Options)] = [
    ("custom-dismiss-action", .customDismissAction), ("hidden-previews-show-title", .hiddenPreviewsShowTitle),
    ("hidden-previews-show-subtitle", .hiddenPreviewsShowSubtitle),
  ]
  static let actionOptions: [(String, NotificationAction.Options)] = [
    ("authentication-required", .authenticationRequired), ("destructive", .destructive), ("foreground", .foreground),
  ]

  // MARK: Authorization, responses, pushes

  static let authorizationOptions: [(String, AuthorizationOptions)] = [
    ("badge", .badge), ("sound", .sound), ("alert", .alert), ("car-play", .carPlay), ("critical-alert", .criticalAlert),
    ("provides-app-notification-settings", .providesAppNotificationSettings), ("provisional", .provisional),
    ("announcement", .announcement), ("time-sensitive", .timeSensitive),
  ]

  static func authorization(_ names: [String]) throws(ChimeError) -> AuthorizationOptions {
    try optionSet(names, authorizationOptions, field: "options")
  }

  /// `Respond(s notification, s action, a{sv} options)`: options `user-text`, and
  /// `snooze-seconds` with action `chime.snooze`.
  static func response(notification: String, action: String, options: BusValue) throws(ChimeError) -> NotificationResponse {
    var o = try BusDictionary(options, path: "options")
    let text = try o.string("user-text") ?? ""
    let snooze = try o.integer("snooze-seconds", in: 0...Int64(Int32.max)) ?? 0
    try o.finish()
    var response = NotificationResponse(notificationIdentifier: notification, actionIdentifier: action, userText: text)
    response.snoozeSeconds = snooze
    return response
  }

  /// `Push(s payload_json, a{sv} options)`: option `identifier` (as `apns-collapse-id`).
  static func push(payload: String, options: BusValue) throws(ChimeError) -> PushSubmission {
    var o = try BusDictionary(options, path: "options")
    let identifier = try o.string("identifier") ?? ""
    try o.finish()
    return PushSubmission(payload: Array(payload.utf8), identifier: identifier)
  }

  /// `Register(s app_id, a{sv} options)`: no options yet; unknown ones are refused.
  /// `SetDoNotDisturb(a{sv} change)`: `manual` (b) with `manual-until` (x), `schedule` (s,
  /// START-END) with `days` (s), `clear-schedule` (b), `follow-desktop` (b), `summary` (b).
  static func doNotDisturb(_ value: BusValue) throws(ChimeError) -> DoNotDisturbChange {
    var o = try BusDictionary(value, path: "change")
    var change = DoNotDisturbChange()
    let until = try o.integer("manual-until", in: 1...Int64.max)
    if let manual = try o.bool("manual"), manual || until == nil {
      change.manual = manual ? .on(until: until.map(Instant.init(unixMillis:))) : .off
    } else if until != nil {
      throw ChimeError(.invalidArgument, "manual-until goes with manual true", field: "change.manual-until")
    }
    let days = try o.string("days")
    if let window = try o.string("schedule") {
      change.schedule = .set(try DoNotDisturbSchedule.parse(window, days: days, field: "change.schedule"))
    } else if days != nil {
      throw ChimeError(.invalidArgument, "days goes with a schedule", field: "change.days")
    }
    if try o.bool("clear-schedule") == true {
      guard change.schedule == nil else {
        throw ChimeError(.invalidArgument, "give schedule or clear-schedule, not both", field: "change.clear-schedule")
      }
      change.schedule = .clear
    }
    change.followDesktop = try o.bool("follow-desktop")
    change.summary = try o.bool("summary")
    try o.finish()
    return change
  }

  /// `SetAppSettings(s app, a{sv} change, a{sv} options)`: `status` (s: authorized, denied) and
  /// a boolean per switchable setting; a key left out is unchanged.
  static func appSettings(app: String, change: BusValue) throws(ChimeError) -> AppSettingsChange {
    var o = try BusDictionary(change, path: "change")
    var result = AppSettingsChange(appID: app)
    result.status = try o.choice("status", [("authorized", AuthorizationStatus.authorized), ("denied", .denied)])
    for (key, option) in appSettingKeys {
      guard let on = try o.bool(key) else { continue }
      if on { result.enable.formUnion(option) } else { result.disable.formUnion(option) }
    }
    try o.finish()
    return result
  }

  static let appSettingKeys: [(String, AuthorizationOptions)] = [
    ("alert", .alert), ("sound", .sound), ("badge", .badge), ("critical-alert", .criticalAlert),
    ("time-sensitive", .timeSensitive), ("car-play", .carPlay), ("announcement", .announcement),
  ]

  static func registration(options: BusValue) throws(ChimeError) {
    try BusDictionary(options, path: "options").finish()
  }

  static func strings(_ value: BusValue, field: String) throws(ChimeError) -> [String] {
    guard case .array("s", let items) = value else { throw BusDictionary.wrongType(field, want: "as", got: value) }
    return items.compactMap { if case .string(let s, _) = $0 { s } else { nil } }
  }

  static func optionSet<T: OptionSet>(_ names: [String]?, _ known: [(String, T)], field: String) throws(ChimeError) -> T {
    var set = T()
    for name in names ?? [] {
      guard let match = known.first(where: { $0.0 == name }) else {
        throw ChimeError(.invalidArgument, "unknown option \"\(name.prefix(100))\"; known: \(known.map(\.0).joined(separator: ", "))", field: field)
      }
      set.formUnion(match.1)
    }
    return set
  }
}
