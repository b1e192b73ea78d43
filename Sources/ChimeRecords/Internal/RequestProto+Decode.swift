package import CChimeProto
package import ChimeCore

/// Reading `request.proto` messages back into Swift values. Input is hostile: a missing message
/// reads as its proto3 default, every string is checked for UTF-8 and every enum for a known
/// value, and each failure names the field path below `path`.
extension RequestProto {
  package typealias Path = () -> String

  package static func request(_ p: UnsafePointer<Chime__V1__NotificationRequest>?, _ path: @autoclosure Path) throws(ChimeError) -> NotificationRequest {
    guard let m = p?.pointee else { return NotificationRequest(identifier: "", content: NotificationContent()) }
    var missedFire = MissedFirePolicy.deliver
    if let policy = m.missed_fire?.pointee {
      missedFire = MissedFirePolicy(
        action: try missedFireAction(policy.action, "\(path()).missed_fire.action"),
        maxLatenessSeconds: policy.max_lateness_seconds
      )
    }
    return NotificationRequest(
      identifier: try ProtoMessage.text(m.identifier, "\(path()).identifier"),
      content: try content(m.content, "\(path()).content"),
      trigger: try trigger(m.trigger, "\(path()).trigger"),
      missedFire: missedFire
    )
  }

  package static func content(_ p: UnsafePointer<Chime__V1__NotificationContent>?, _ path: @autoclosure Path) throws(ChimeError) -> NotificationContent {
    var c = NotificationContent()
    guard let m = p?.pointee else { return c }
    c.title = try ProtoMessage.text(m.title, "\(path()).title")
    c.subtitle = try ProtoMessage.text(m.subtitle, "\(path()).subtitle")
    c.body = try ProtoMessage.text(m.body, "\(path()).body")
    if m.badge_set_case == CHIME__V1__NOTIFICATION_CONTENT__BADGE_SET_BADGE {
      c.badge = m.badge
    }
    c.sound = try sound(m.sound, "\(path()).sound")
    c.userInfoJSON = try ProtoMessage.text(m.user_info_json, "\(path()).user_info_json")
    if let list = m.attachments, m.n_attachments > 0 {
      c.attachments.reserveCapacity(m.n_attachments)
      for i in 0..<m.n_attachments {
        c.attachments.append(try attachment(list[i], "\(path()).attachments[\(i)]"))
      }
    }
    c.categoryIdentifier = try ProtoMessage.text(m.category_identifier, "\(path()).category_identifier")
    c.threadIdentifier = try ProtoMessage.text(m.thread_identifier, "\(path()).thread_identifier")
    c.targetContentIdentifier = try ProtoMessage.text(m.target_content_identifier, "\(path()).target_content_identifier")
    c.interruptionLevel = try interruptionLevel(m.interruption_level, "\(path()).interruption_level")
    if m.relevance_set_case == CHIME__V1__NOTIFICATION_CONTENT__RELEVANCE_SET_RELEVANCE_SCORE {
      c.relevanceScore = m.relevance_score
    }
    c.summaryArgument = try ProtoMessage.text(m.summary_argument, "\(path()).summary_argument")
    c.launchImageName = try ProtoMessage.text(m.launch_image_name, "\(path()).launch_image_name")
    if let l = m.alert_localization?.pointee {
      let at = "\(path()).alert_localization"
      var loc = AlertLocalization()
      loc.titleLocKey = try ProtoMessage.text(l.title_loc_key, "\(at).title_loc_key")
      loc.titleLocArgs = try ProtoMessage.texts(l.title_loc_args, count: l.n_title_loc_args, "\(at).title_loc_args")
      loc.subtitleLocKey = try ProtoMessage.text(l.subtitle_loc_key, "\(at).subtitle_loc_key")
      loc.subtitleLocArgs = try ProtoMessage.texts(l.subtitle_loc_args, count: l.n_subtitle_loc_args, "\(at).subtitle_loc_args")
      loc.locKey = try ProtoMessage.text(l.loc_key, "\(at).loc_key")
      loc.locArgs = try ProtoMessage.texts(l.loc_args, count: l.n_loc_args, "\(at).loc_args")
      c.alertLocalization = loc
    }
    if let ring = m.ring?.pointee {
      c.ring = Ring(seconds: ring.seconds, autoSnooze: ring.auto_snooze)
    }
    return c
  }

  /// nil when the message is missing or its kind is UNSPECIFIED (silent).
  package static func sound(_ p: UnsafePointer<Chime__V1__Sound>?, _ path: @autoclosure Path) throws(ChimeError) -> Sound? {
    guard let m = p?.pointee else { return nil }
    let kind: Sound.Kind
    switch m.kind {
    case CHIME__V1__SOUND_KIND__SOUND_KIND_UNSPECIFIED: return nil
    case CHIME__V1__SOUND_KIND__SOUND_KIND_NONE: kind = .none
    case CHIME__V1__SOUND_KIND__SOUND_KIND_DEFAULT: kind = .default
    case CHIME__V1__SOUND_KIND__SOUND_KIND_NAMED: kind = .named
    case CHIME__V1__SOUND_KIND__SOUND_KIND_DEFAULT_CRITICAL: kind = .defaultCritical
    case CHIME__V1__SOUND_KIND__SOUND_KIND_CRITICAL_NAMED: kind = .criticalNamed
    default: throw WireErrors.unknownEnum(m.kind.rawValue, field: "\(path()).kind")
    }
    let volume: Double? = m.volume_set_case == CHIME__V1__SOUND__VOLUME_SET_VOLUME ? m.volume : nil
    return Sound(kind: kind, name: try ProtoMessage.text(m.name, "\(path()).name"), volume: volume)
  }

  package static func attachment(_ p: UnsafePointer<Chime__V1__Attachment>?, _ path: @autoclosure Path) throws(ChimeError) -> Attachment {
    guard let m = p?.pointee else { return Attachment(path: "") }
    var options = AttachmentOptions()
    if let o = m.options?.pointee {
      options.typeHint = try ProtoMessage.text(o.type_hint, "\(path()).options.type_hint")
      options.thumbnailHidden = o.thumbnail_hidden != 0
      if o.clip_set_case == CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT {
        let r = o.thumbnail_clipping_rect?.pointee
        options.thumbnailClippingRect = ClipRect(x: r?.x ?? 0, y: r?.y ?? 0, width: r?.width ?? 0, height: r?.height ?? 0)
      }
      if o.time_set_case == CHIME__V1__ATTACHMENT_OPTIONS__TIME_SET_THUMBNAIL_TIME {
        options.thumbnailTime = o.thumbnail_time
      }
    }
    var info: AttachmentInfo?
    if let i = m.info?.pointee {
      var v = AttachmentInfo()
      v.storePath = try ProtoMessage.text(i.store_path, "\(path()).info.store_path")
      v.type = try ProtoMessage.text(i.type, "\(path()).info.type")
      v.mediaClass = try ProtoMessage.text(i.media_class, "\(path()).info.media_class")
      v.bytes = i.bytes
      v.width = i.width
      v.height = i.height
      v.durationSeconds = i.duration_seconds
      v.frameCount = i.frame_count
      info = v
    }
    return Attachment(
      identifier: try ProtoMessage.text(m.identifier, "\(path()).identifier"),
      path: try ProtoMessage.text(m.path, "\(path()).path"),
      options: options,
      info: info
    )
  }

  /// nil when the message is missing or no kind is set ("deliver now").
  package static func trigger(_ p: UnsafePointer<Chime__V1__Trigger>?, _ path: @autoclosure Path) throws(ChimeError) -> Trigger? {
    guard let m = p?.pointee else { return nil }
    switch m.kind_case {
    case CHIME__V1__TRIGGER__KIND_TIME_INTERVAL:
      let t = m.time_interval?.pointee
      return .timeInterval(TimeIntervalTrigger(seconds: t?.seconds ?? 0, repeats: (t?.repeats ?? 0) != 0, end: repeatEnd(t?.end)))
    case CHIME__V1__TRIGGER__KIND_CALENDAR:
      guard let c = m.calendar?.pointee else { return .calendar(CalendarTrigger(components: CalendarComponents())) }
      return .calendar(CalendarTrigger(
        components: try components(c.components, "\(path()).calendar.components"),
        repeats: c.repeats != 0,
        dstGap: try dstGap(c.dst_gap, "\(path()).calendar.dst_gap"),
        dstOverlap: try dstOverlap(c.dst_overlap, "\(path()).calendar.dst_overlap"),
        end: repeatEnd(c.end)
      ))
    case CHIME__V1__TRIGGER__KIND_RECURRENCE:
      // Parsed here, so a rule that does not parse is refused as the request arrives, with
      // INVALID_RECURRENCE_RULE and the field path.
      let at = "\(path()).recurrence"
      let r = m.recurrence?.pointee
      let zone = try ProtoMessage.text(r?.time_zone, "\(at).time_zone")
      return .recurrence(try Recurrence(
        rule: try ProtoMessage.text(r?.rule, "\(at).rule"),
        start: try ProtoMessage.text(r?.start, "\(at).start"),
        timeZone: zone.isEmpty ? nil : zone,
        exclusions: try ProtoMessage.texts(r?.exclusions, count: r?.n_exclusions ?? 0, "\(at).exclusions"),
        field: at))
    default:
      return nil
    }
  }

  package static func repeatEnd(_ p: UnsafePointer<Chime__V1__RepeatEnd>?) -> RepeatEnd? {
    guard let m = p?.pointee else { return nil }
    var end = RepeatEnd()
    if m.until_set_case == CHIME__V1__REPEAT_END__UNTIL_SET_UNTIL_UNIX_MS { end.until = Instant(unixMillis: m.until_unix_ms) }
    if m.count > 0 { end.count = Int(m.count) }
    return end
  }

  package static func components(_ p: UnsafePointer<Chime__V1__DateComponents>?, _ path: @autoclosure Path) throws(ChimeError) -> CalendarComponents {
    var d = CalendarComponents()
    guard let m = p?.pointee else { return d }
    if m.year_set_case == CHIME__V1__DATE_COMPONENTS__YEAR_SET_YEAR { d.year = Int(m.year) }
    if m.month_set_case == CHIME__V1__DATE_COMPONENTS__MONTH_SET_MONTH { d.month = Int(m.month) }
    if m.day_set_case == CHIME__V1__DATE_COMPONENTS__DAY_SET_DAY { d.day = Int(m.day) }
    if m.hour_set_case == CHIME__V1__DATE_COMPONENTS__HOUR_SET_HOUR { d.hour = Int(m.hour) }
    if m.minute_set_case == CHIME__V1__DATE_COMPONENTS__MINUTE_SET_MINUTE { d.minute = Int(m.minute) }
    if m.second_set_case == CHIME__V1__DATE_COMPONENTS__SECOND_SET_SECOND { d.second = Int(m.second) }
    if m.weekday_set_case == CHIME__V1__DATE_COMPONENTS__WEEKDAY_SET_WEEKDAY { d.weekday = Int(m.weekday) }
    if m.n_weekdays > 0, let days = m.weekdays { d.weekdays = (0..<m.n_weekdays).map { Int(days[$0]) } }
    if m.weekday_ordinal_set_case == CHIME__V1__DATE_COMPONENTS__WEEKDAY_ORDINAL_SET_WEEKDAY_ORDINAL {
      d.weekdayOrdinal = Int(m.weekday_ordinal)
    }
    if m.week_of_month_set_case == CHIME__V1__DATE_COMPONENTS__WEEK_OF_MONTH_SET_WEEK_OF_MONTH {
      d.weekOfMonth = Int(m.week_of_month)
    }
    if m.week_of_year_set_case == CHIME__V1__DATE_COMPONENTS__WEEK_OF_YEAR_SET_WEEK_OF_YEAR {
      d.weekOfYear = Int(m.week_of_year)
    }
    if m.year_for_week_of_year_set_case == CHIME__V1__DATE_COMPONENTS__YEAR_FOR_WEEK_OF_YEAR_SET_YEAR_FOR_WEEK_OF_YEAR {
      d.yearForWeekOfYear = Int(m.year_for_week_of_year)
    }
    let zone = try ProtoMessage.text(m.time_zone, "\(path()).time_zone")
    d.timeZone = zone.isEmpty ? nil : zone
    return d
  }

  package static func pending(_ p: UnsafePointer<Chime__V1__PendingRequest>?, _ path: @autoclosure Path) throws(ChimeError) -> PendingRequest {
    guard let m = p?.pointee else {
      return PendingRequest(request: try request(nil, ""), nextFire: Instant(unixMillis: 0), added: Instant(unixMillis: 0))
    }
    var pending = PendingRequest(
      request: try request(m.request, "\(path()).request"),
      nextFire: Instant(unixMillis: m.next_fire_unix_ms),
      added: Instant(unixMillis: m.added_unix_ms),
      sound: try soundResolution(m.sound, "\(path()).sound"),
      fireCount: m.fire_count,
      extensionAttributes: try m.extension_attributes.map { (a) throws(ChimeError) in
        try ExtensionProto.attributes(a, "\(path()).extension_attributes")
      }
    )
    pending.snoozeCount = Int(m.snooze_count)
    return pending
  }

  package static func delivered(_ p: UnsafePointer<Chime__V1__DeliveredNotification>?, _ path: @autoclosure Path) throws(ChimeError) -> DeliveredNotification {
    guard let m = p?.pointee else {
      return DeliveredNotification(request: try request(nil, ""), delivered: Instant(unixMillis: 0), due: Instant(unixMillis: 0))
    }
    return DeliveredNotification(
      request: try request(m.request, "\(path()).request"),
      delivered: Instant(unixMillis: m.delivered_unix_ms),
      due: Instant(unixMillis: m.due_unix_ms),
      missed: m.missed != 0,
      sound: try soundResolution(m.sound, "\(path()).sound"),
      category: try m.category.map { (c) throws(ChimeError) in try CategoryProto.category(c.pointee, "\(path()).category") },
      extensionAttributes: try m.extension_attributes.map { (a) throws(ChimeError) in
        try ExtensionProto.attributes(a, "\(path()).extension_attributes")
      },
      mediaPlayback: try ExtensionProto.playback(m.media_playback, "\(path()).media_playback")
    )
    .with(push: try m.push.map { (p) throws(ChimeError) in try push(p.pointee, "\(path()).push") },
          fireLatenessMicros: m.fire_lateness_us > 0 ? m.fire_lateness_us : nil, quiet: m.delivered_quietly != 0,
          snoozeCount: Int(m.snooze_count),
          ringEnded: try ringEnd(m.ring_ended, "\(path()).ring_ended"))
  }

  /// Empty reads as nil (ringing, or no ring).
  package static func ringEnd(_ p: UnsafePointer<CChar>?, _ path: @autoclosure Path) throws(ChimeError) -> RingEnd? {
    let text = try ProtoMessage.text(p, path())
    guard !text.isEmpty else { return nil }
    guard let end = RingEnd(rawValue: text) else { throw WireErrors.unknownValue(text, field: path()) }
    return end
  }

  /// - Throws: INVALID_ARGUMENT `UNKNOWN_ENUM_VALUE` for a content source this build does not know.
  package static func push(_ m: Chime__V1__PushDelivery, _ path: @autoclosure Path) throws(ChimeError) -> PushDelivery {
    let sourceText = try ProtoMessage.text(m.content, "\(path()).content")
    guard let source = PushDelivery.Source(rawValue: sourceText.isEmpty ? "original" : sourceText) else {
      throw ChimeError(.unknownEnumValue, "content source \"\(sourceText)\" is not known to this build", field: "\(path()).content")
    }
    var refused: [RefusedAttachment] = []
    if let list = m.refused_attachments, m.n_refused_attachments > 0 {
      for i in 0..<m.n_refused_attachments {
        let r = list[i]!.pointee, at = "\(path()).refused_attachments[\(i)]"
        refused.append(RefusedAttachment(identifier: try ProtoMessage.text(r.identifier, "\(at).identifier"),
                                         path: try ProtoMessage.text(r.path, "\(at).path"),
                                         reason: try ProtoMessage.text(r.reason, "\(at).reason"),
                                         message: try ProtoMessage.text(r.message, "\(at).message"),
                                         field: try ProtoMessage.text(r.field, "\(at).field")))
      }
    }
    return PushDelivery(mutableContent: m.mutable_content != 0, source: source,
                        reason: try ProtoMessage.text(m.reason, "\(path()).reason"),
                        message: try ProtoMessage.text(m.message, "\(path()).message"),
                        extensionIdentifier: try ProtoMessage.text(m.extension_identifier, "\(path()).extension_identifier"),
                        refusedAttachments: refused)
  }

  /// `plays` must be "named", "default" or "none".
  package static func soundResolution(_ p: UnsafePointer<Chime__V1__SoundResolution>?, _ path: @autoclosure Path) throws(ChimeError) -> SoundResolution? {
    guard let m = p?.pointee else { return nil }
    let playsText = try ProtoMessage.text(m.plays, "\(path()).plays")
    guard let plays = SoundResolution.Plays(rawValue: playsText) else {
      throw WireErrors.unknownValue(playsText, field: "\(path()).plays")
    }
    var s = SoundResolution(plays: plays)
    s.path = try ProtoMessage.text(m.path, "\(path()).path")
    s.reason = try ProtoMessage.text(m.reason, "\(path()).reason")
    s.message = try ProtoMessage.text(m.message, "\(path()).message")
    s.container = try ProtoMessage.text(m.container, "\(path()).container")
    s.codec = try ProtoMessage.text(m.codec, "\(path()).codec")
    s.channels = m.channels
    s.sampleRate = m.sample_rate
    s.frames = m.frames
    s.durationSeconds = m.duration_seconds
    s.criticalDowngraded = m.critical_downgraded != 0
    return s
  }

  // MARK: Enums (UNSPECIFIED reads as the documented default)

  package static func interruptionLevel(_ v: Chime__V1__InterruptionLevel, _ path: @autoclosure Path) throws(ChimeError) -> InterruptionLevel {
    switch v {
    case CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_UNSPECIFIED, CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_ACTIVE: .active
    case CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_PASSIVE: .passive
    case CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_TIME_SENSITIVE: .timeSensitive
    case CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_CRITICAL: .critical
    default: throw WireErrors.unknownEnum(v.rawValue, field: path())
    }
  }

  package static func dstGap(_ v: Chime__V1__DstGapPolicy, _ path: @autoclosure Path) throws(ChimeError) -> DSTGapPolicy {
    switch v {
    case CHIME__V1__DST_GAP_POLICY__DST_GAP_POLICY_UNSPECIFIED, CHIME__V1__DST_GAP_POLICY__DST_GAP_POLICY_NEXT_VALID: .nextValid
    case CHIME__V1__DST_GAP_POLICY__DST_GAP_POLICY_SKIP: .skip
    default: throw WireErrors.unknownEnum(v.rawValue, field: path())
    }
  }

  package static func dstOverlap(_ v: Chime__V1__DstOverlapPolicy, _ path: @autoclosure Path) throws(ChimeError) -> DSTOverlapPolicy {
    switch v {
    case CHIME__V1__DST_OVERLAP_POLICY__DST_OVERLAP_POLICY_UNSPECIFIED, CHIME__V1__DST_OVERLAP_POLICY__DST_OVERLAP_POLICY_FIRST: .first
    case CHIME__V1__DST_OVERLAP_POLICY__DST_OVERLAP_POLICY_BOTH: .both
    default: throw WireErrors.unknownEnum(v.rawValue, field: path())
    }
  }

  package static func missedFireAction(_ v: Chime__V1__MissedFireAction, _ path: @autoclosure Path) throws(ChimeError) -> MissedFirePolicy.Action {
    switch v {
    case CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_UNSPECIFIED, CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_DELIVER: .deliver
    case CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_SKIP: .skip
    case CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_DELIVER_IF_LATE_BY_LESS_THAN: .deliverIfLateByLessThan
    default: throw WireErrors.unknownEnum(v.rawValue, field: path())
    }
  }
}

extension DeliveredNotification {
  fileprivate func with(push: PushDelivery?, fireLatenessMicros: Int64?, quiet: Bool, snoozeCount: Int,
                        ringEnded: RingEnd?) -> DeliveredNotification {
    var copy = self
    copy.snoozeCount = snoozeCount
    copy.ringEnded = ringEnded
    copy.push = push
    copy.fireLatenessMicros = fireLatenessMicros
    copy.quiet = quiet
    return copy
  }
}
