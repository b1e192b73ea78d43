package import CChimeProto
package import ChimeCore

/// Conversions for the messages of `request.proto`. This file builds C structs from Swift values
/// (every allocation goes into the arena); `RequestProto+Decode.swift` reads them back.
package enum RequestProto {
  package static func build(_ r: NotificationRequest, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__NotificationRequest> {
    let m = arena.message(chime__v1__notification_request__init)
    arena.assign(&m.pointee.identifier, r.identifier)
    m.pointee.content = build(r.content, in: arena)
    if let trigger = r.trigger {
      m.pointee.trigger = build(trigger, in: arena)
    }
    // The default policy is left out: UNSPECIFIED reads back as DELIVER.
    if r.missedFire != .deliver {
      let p = arena.message(chime__v1__missed_fire_policy__init)
      p.pointee.action = cMissedFireAction(r.missedFire.action)
      p.pointee.max_lateness_seconds = r.missedFire.maxLatenessSeconds
      m.pointee.missed_fire = p
    }
    return m
  }

  package static func build(_ c: NotificationContent, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__NotificationContent> {
    let m = arena.message(chime__v1__notification_content__init)
    arena.assign(&m.pointee.title, c.title)
    arena.assign(&m.pointee.subtitle, c.subtitle)
    arena.assign(&m.pointee.body, c.body)
    if let badge = c.badge {
      m.pointee.badge_set_case = CHIME__V1__NOTIFICATION_CONTENT__BADGE_SET_BADGE
      m.pointee.badge = badge
    }
    if let sound = c.sound {
      m.pointee.sound = build(sound, in: arena)
    }
    arena.assign(&m.pointee.user_info_json, c.userInfoJSON)
    arena.assign(&m.pointee.attachments, count: &m.pointee.n_attachments, c.attachments) { build($0, in: arena) }
    arena.assign(&m.pointee.category_identifier, c.categoryIdentifier)
    arena.assign(&m.pointee.thread_identifier, c.threadIdentifier)
    arena.assign(&m.pointee.target_content_identifier, c.targetContentIdentifier)
    m.pointee.interruption_level = cInterruptionLevel(c.interruptionLevel)
    if let score = c.relevanceScore {
      m.pointee.relevance_set_case = CHIME__V1__NOTIFICATION_CONTENT__RELEVANCE_SET_RELEVANCE_SCORE
      m.pointee.relevance_score = score
    }
    arena.assign(&m.pointee.summary_argument, c.summaryArgument)
    arena.assign(&m.pointee.launch_image_name, c.launchImageName)
    if let l = c.alertLocalization {
      let loc = arena.message(chime__v1__alert_localization__init)
      arena.assign(&loc.pointee.title_loc_key, l.titleLocKey)
      arena.assign(&loc.pointee.title_loc_args, count: &loc.pointee.n_title_loc_args, l.titleLocArgs)
      arena.assign(&loc.pointee.subtitle_loc_key, l.subtitleLocKey)
      arena.assign(&loc.pointee.subtitle_loc_args, count: &loc.pointee.n_subtitle_loc_args, l.subtitleLocArgs)
      arena.assign(&loc.pointee.loc_key, l.locKey)
      arena.assign(&loc.pointee.loc_args, count: &loc.pointee.n_loc_args, l.locArgs)
      m.pointee.alert_localization = loc
    }
    if let ring = c.ring {
      let r = arena.message(chime__v1__ring__init)
      r.pointee.seconds = ring.seconds
      r.pointee.auto_snooze = ring.autoSnooze
      m.pointee.ring = r
    }
    return m
  }

  package static func build(_ s: Sound, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Sound> {
    let m = arena.message(chime__v1__sound__init)
    m.pointee.kind = cSoundKind(s.kind)
    arena.assign(&m.pointee.name, s.name)
    if let volume = s.volume {
      m.pointee.volume_set_case = CHIME__V1__SOUND__VOLUME_SET_VOLUME
      m.pointee.volume = volume
    }
    return m
  }

  package static func build(_ a: Attachment, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Attachment> {
    let m = arena.message(chime__v1__attachment__init)
    arena.assign(&m.pointee.identifier, a.identifier)
    arena.assign(&m.pointee.path, a.path)
    if a.options != AttachmentOptions() {
      let o = arena.message(chime__v1__attachment_options__init)
      arena.assign(&o.pointee.type_hint, a.options.typeHint)
      o.pointee.thumbnail_hidden = a.options.thumbnailHidden ? 1 : 0
      if let rect = a.options.thumbnailClippingRect {
        let r = arena.message(chime__v1__clip_rect__init)
        r.pointee.x = rect.x
        r.pointee.y = rect.y
        r.pointee.width = rect.width
        r.pointee.height = rect.height
        o.pointee.clip_set_case = CHIME__V1__ATTACHMENT_OPTIONS__CLIP_SET_THUMBNAIL_CLIPPING_RECT
        o.pointee.thumbnail_clipping_rect = r
      }
      if let time = a.options.thumbnailTime {
        o.pointee.time_set_case = CHIME__V1__ATTACHMENT_OPTIONS__TIME_SET_THUMBNAIL_TIME
        o.pointee.thumbnail_time = time
      }
      m.pointee.options = o
    }
    if let info = a.info {
      let i = arena.message(chime__v1__attachment_info__init)
      arena.assign(&i.pointee.store_path, info.storePath)
      arena.assign(&i.pointee.type, info.type)
      arena.assign(&i.pointee.media_class, info.mediaClass)
      i.pointee.bytes = info.bytes
      i.pointee.width = info.width
      i.pointee.height = info.height
      i.pointee.duration_seconds = info.durationSeconds
      i.pointee.frame_count = info.frameCount
      m.pointee.info = i
    }
    return m
  }

  package static func build(_ t: Trigger, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__Trigger> {
    let m = arena.message(chime__v1__trigger__init)
    switch t {
    case .timeInterval(let ti):
      let i = arena.message(chime__v1__time_interval_trigger__init)
      i.pointee.seconds = ti.seconds
      i.pointee.repeats = ti.repeats ? 1 : 0
      i.pointee.end = build(ti.end, in: arena)
      m.pointee.kind_case = CHIME__V1__TRIGGER__KIND_TIME_INTERVAL
      m.pointee.time_interval = i
    case .calendar(let cal):
      let c = arena.message(chime__v1__calendar_trigger__init)
      c.pointee.components = build(cal.components, in: arena)
      c.pointee.repeats = cal.repeats ? 1 : 0
      c.pointee.dst_gap = cDSTGap(cal.dstGap)
      c.pointee.dst_overlap = cDSTOverlap(cal.dstOverlap)
      c.pointee.end = build(cal.end, in: arena)
      m.pointee.kind_case = CHIME__V1__TRIGGER__KIND_CALENDAR
      m.pointee.calendar = c
    case .recurrence(let recurrence):
      let r = arena.message(chime__v1__recurrence_trigger__init)
      arena.assign(&r.pointee.rule, recurrence.ruleText)
      arena.assign(&r.pointee.start, recurrence.startText)
      arena.assign(&r.pointee.time_zone, recurrence.timeZone ?? "")
      arena.assign(&r.pointee.exclusions, count: &r.pointee.n_exclusions, recurrence.exclusionTexts)
      m.pointee.kind_case = CHIME__V1__TRIGGER__KIND_RECURRENCE
      m.pointee.recurrence = r
    }
    return m
  }

  package static func build(_ end: RepeatEnd?, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__RepeatEnd>? {
    guard let end else { return nil }
    let m = arena.message(chime__v1__repeat_end__init)
    if let until = end.until {
      m.pointee.until_set_case = CHIME__V1__REPEAT_END__UNTIL_SET_UNTIL_UNIX_MS
      m.pointee.until_unix_ms = until.unixMillis
    }
    m.pointee.count = UInt32(clamping: end.count ?? 0)
    return m
  }

  /// Components outside Int32 are clamped (the validator rejects them long before).
  package static func build(_ d: CalendarComponents, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__DateComponents> {
    let m = arena.message(chime__v1__date_components__init)
    if let v = d.year {
      m.pointee.year_set_case = CHIME__V1__DATE_COMPONENTS__YEAR_SET_YEAR
      m.pointee.year = Int32(clamping: v)
    }
    if let v = d.month {
      m.pointee.month_set_case = CHIME__V1__DATE_COMPONENTS__MONTH_SET_MONTH
      m.pointee.month = Int32(clamping: v)
    }
    if let v = d.day {
      m.pointee.day_set_case = CHIME__V1__DATE_COMPONENTS__DAY_SET_DAY
      m.pointee.day = Int32(clamping: v)
    }
    if let v = d.hour {
      m.pointee.hour_set_case = CHIME__V1__DATE_COMPONENTS__HOUR_SET_HOUR
      m.pointee.hour = Int32(clamping: v)
    }
    if let v = d.minute {
      m.pointee.minute_set_case = CHIME__V1__DATE_COMPONENTS__MINUTE_SET_MINUTE
      m.pointee.minute = Int32(clamping: v)
    }
    if let v = d.second {
      m.pointee.second_set_case = CHIME__V1__DATE_COMPONENTS__SECOND_SET_SECOND
      m.pointee.second = Int32(clamping: v)
    }
    if let v = d.weekday {
      m.pointee.weekday_set_case = CHIME__V1__DATE_COMPONENTS__WEEKDAY_SET_WEEKDAY
      m.pointee.weekday = Int32(clamping: v)
    }
    if let days = d.weekdays, !days.isEmpty {
      m.pointee.n_weekdays = days.count
      m.pointee.weekdays = arena.array(of: Int32.self, count: days.count)
      for (i, day) in days.enumerated() { m.pointee.weekdays[i] = Int32(clamping: day) }
    }
    if let v = d.weekdayOrdinal {
      m.pointee.weekday_ordinal_set_case = CHIME__V1__DATE_COMPONENTS__WEEKDAY_ORDINAL_SET_WEEKDAY_ORDINAL
      m.pointee.weekday_ordinal = Int32(clamping: v)
    }
    if let v = d.weekOfMonth {
      m.pointee.week_of_month_set_case = CHIME__V1__DATE_COMPONENTS__WEEK_OF_MONTH_SET_WEEK_OF_MONTH
      m.pointee.week_of_month = Int32(clamping: v)
    }
    if let v = d.weekOfYear {
      m.pointee.week_of_year_set_case = CHIME__V1__DATE_COMPONENTS__WEEK_OF_YEAR_SET_WEEK_OF_YEAR
      m.pointee.week_of_year = Int32(clamping: v)
    }
    if let v = d.yearForWeekOfYear {
      m.pointee.year_for_week_of_year_set_case = CHIME__V1__DATE_COMPONENTS__YEAR_FOR_WEEK_OF_YEAR_SET_YEAR_FOR_WEEK_OF_YEAR
      m.pointee.year_for_week_of_year = Int32(clamping: v)
    }
    arena.assign(&m.pointee.time_zone, d.timeZone ?? "")
    return m
  }

  package static func build(_ p: PendingRequest, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__PendingRequest> {
    let m = arena.message(chime__v1__pending_request__init)
    m.pointee.request = build(p.request, in: arena)
    m.pointee.next_fire_unix_ms = p.nextFire.unixMillis
    m.pointee.added_unix_ms = p.added.unixMillis
    if let sound = p.sound {
      m.pointee.sound = build(sound, in: arena)
    }
    m.pointee.fire_count = p.fireCount
    m.pointee.snooze_count = UInt32(clamping: p.snoozeCount)
    if let attributes = p.extensionAttributes {
      m.pointee.extension_attributes = ExtensionProto.build(attributes, in: arena)
    }
    return m
  }

  package static func build(_ d: DeliveredNotification, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__DeliveredNotification> {
    let m = arena.message(chime__v1__delivered_notification__init)
    m.pointee.request = build(d.request, in: arena)
    m.pointee.delivered_unix_ms = d.delivered.unixMillis
    m.pointee.due_unix_ms = d.due.unixMillis
    m.pointee.missed = d.missed ? 1 : 0
    m.pointee.fire_lateness_us = d.fireLatenessMicros ?? 0
    m.pointee.delivered_quietly = d.quiet ? 1 : 0
    m.pointee.snooze_count = UInt32(clamping: d.snoozeCount)
    arena.assign(&m.pointee.ring_ended, d.ringEnded?.rawValue ?? "")
    if let sound = d.sound {
      m.pointee.sound = build(sound, in: arena)
    }
    if let category = d.category {
      m.pointee.category = CategoryProto.build(category, in: arena)
    }
    if let attributes = d.extensionAttributes {
      m.pointee.extension_attributes = ExtensionProto.build(attributes, in: arena)
    }
    m.pointee.media_playback = ExtensionProto.playback(d.mediaPlayback)
    if let push = d.push {
      m.pointee.push = build(push, in: arena)
    }
    return m
  }

  package static func build(_ p: PushDelivery, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__PushDelivery> {
    let m = arena.message(chime__v1__push_delivery__init)
    m.pointee.mutable_content = p.mutableContent ? 1 : 0
    arena.assign(&m.pointee.content, p.source.rawValue)
    arena.assign(&m.pointee.reason, p.reason)
    arena.assign(&m.pointee.message, p.message)
    arena.assign(&m.pointee.extension_identifier, p.extensionIdentifier)
    arena.assign(&m.pointee.refused_attachments, count: &m.pointee.n_refused_attachments, p.refusedAttachments) { r in
      let a = arena.message(chime__v1__refused_attachment__init)
      arena.assign(&a.pointee.identifier, r.identifier)
      arena.assign(&a.pointee.path, r.path)
      arena.assign(&a.pointee.reason, r.reason)
      arena.assign(&a.pointee.message, r.message)
      arena.assign(&a.pointee.field, r.field)
      return a
    }
    return m
  }

  package static func build(_ s: SoundResolution, in arena: CArena) -> UnsafeMutablePointer<Chime__V1__SoundResolution> {
    let m = arena.message(chime__v1__sound_resolution__init)
    arena.assign(&m.pointee.plays, s.plays.rawValue)
    arena.assign(&m.pointee.path, s.path)
    arena.assign(&m.pointee.reason, s.reason)
    arena.assign(&m.pointee.message, s.message)
    arena.assign(&m.pointee.container, s.container)
    arena.assign(&m.pointee.codec, s.codec)
    m.pointee.channels = s.channels
    m.pointee.sample_rate = s.sampleRate
    m.pointee.frames = s.frames
    m.pointee.duration_seconds = s.durationSeconds
    m.pointee.critical_downgraded = s.criticalDowngraded ? 1 : 0
    return m
  }

  // MARK: Enums

  package static func cInterruptionLevel(_ level: InterruptionLevel) -> Chime__V1__InterruptionLevel {
    switch level {
    case .passive: CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_PASSIVE
    case .active: CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_ACTIVE
    case .timeSensitive: CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_TIME_SENSITIVE
    case .critical: CHIME__V1__INTERRUPTION_LEVEL__INTERRUPTION_LEVEL_CRITICAL
    }
  }

  package static func cSoundKind(_ kind: Sound.Kind) -> Chime__V1__SoundKind {
    switch kind {
    case .none: CHIME__V1__SOUND_KIND__SOUND_KIND_NONE
    case .default: CHIME__V1__SOUND_KIND__SOUND_KIND_DEFAULT
    case .named: CHIME__V1__SOUND_KIND__SOUND_KIND_NAMED
    case .defaultCritical: CHIME__V1__SOUND_KIND__SOUND_KIND_DEFAULT_CRITICAL
    case .criticalNamed: CHIME__V1__SOUND_KIND__SOUND_KIND_CRITICAL_NAMED
    }
  }

  package static func cDSTGap(_ policy: DSTGapPolicy) -> Chime__V1__DstGapPolicy {
    switch policy {
    case .nextValid: CHIME__V1__DST_GAP_POLICY__DST_GAP_POLICY_NEXT_VALID
    case .skip: CHIME__V1__DST_GAP_POLICY__DST_GAP_POLICY_SKIP
    }
  }

  package static func cDSTOverlap(_ policy: DSTOverlapPolicy) -> Chime__V1__DstOverlapPolicy {
    switch policy {
    case .first: CHIME__V1__DST_OVERLAP_POLICY__DST_OVERLAP_POLICY_FIRST
    case .both: CHIME__V1__DST_OVERLAP_POLICY__DST_OVERLAP_POLICY_BOTH
    }
  }

  package static func cMissedFireAction(_ action: MissedFirePolicy.Action) -> Chime__V1__MissedFireAction {
    switch action {
    case .deliver: CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_DELIVER
    case .skip: CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_SKIP
    case .deliverIfLateByLessThan: CHIME__V1__MISSED_FIRE_ACTION__MISSED_FIRE_ACTION_DELIVER_IF_LATE_BY_LESS_THAN
    }
  }
}
