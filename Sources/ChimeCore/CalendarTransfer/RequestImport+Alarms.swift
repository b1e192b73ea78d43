extension RequestImport {
  /// The requests for one UID's planned alarms (its master and overrides): per alarm and
  /// repeat, one rule trigger when `recurringTrigger` finds one, else one-shots.
  static func requests(uid: String, alarms: [PlannedAlarm], item: CalendarItem, extras: (Int) -> Extras, now: Instant,
                       until: Instant, zones: CalendarZones, base plainBase: String? = nil) -> [Imported] {
    struct Key: Hashable { var component: Int, alarm: Int, repeatIndex: Int }
    var order: [Key] = []
    var groups: [Key: [PlannedAlarm]] = [:]
    for alarm in alarms {
      let key = Key(component: alarm.componentIndex, alarm: alarm.alarmIndex, repeatIndex: alarm.repeatIndex)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(alarm)
    }
    let siblings = uid.isEmpty ? 1 : item.components.filter { $0.uid == uid }.count
    var made: [(Imported, suffix: String)] = []
    for key in order {
      let group = groups[key]!
      let component = item.components[key.component]
      let own = extras(key.component).own
      let content = self.content(component, group[0], own: own, description: extras(key.component).description)
      let alarm = component.alarms.first { ($0.index ?? -1) == key.alarm }
      let suffix = "#\(key.alarm)" + (key.repeatIndex > 0 ? ".\(key.repeatIndex)" : "")
      if siblings == 1, let alarm,
         let trigger = recurringTrigger(component, alarm, repeatIndex: key.repeatIndex, expected: group.map(\.at), item: item,
                                        now: now, until: until, zones: zones) {
        let request = NotificationRequest(identifier: "", content: content, trigger: .recurrence(trigger),
                                          missedFire: own?.pending.request.missedFire ?? .deliver)
        let note = "repeats: RRULE \(trigger.rule.text) from \(trigger.start) \(trigger.timeZone ?? "floating")"
        made.append((Imported(app: own?.app, request: request, firstFire: group[0].at, source: source(component), note: note), suffix))
        continue
      }
      let kept = group.prefix(oneShotsPerAlarm)
      let note = group.count > kept.count
        ? "one notification per alarm instant: the first \(kept.count) of \(group.count) within \(horizonDays) days"
        : component.rules.isEmpty && component.recurrenceDates.isEmpty && component.recurrenceID == nil ? "fires once"
        : "one notification per alarm instant within \(horizonDays) days (no rule trigger gives the same instants)"
      for planned in kept {
        let at = CivilDate.floorDiv(planned.at.unixMillis + 999, 1000)
        let trigger = Trigger.calendar(CalendarTrigger(components: CalendarSpec.instant(unixSeconds: at)))
        let request = NotificationRequest(identifier: "", content: content, trigger: trigger, missedFire: own?.pending.request.missedFire ?? .deliver)
        let stamp = group.count > 1 || component.recurrenceID != nil ? "@" + LocalDateTime(wallSeconds: at).compactText + "Z" : ""
        made.append((Imported(app: own?.app, request: request, firstFire: Instant(unixMillis: at * 1000), source: source(component),
                              note: note), suffix + stamp))
      }
    }
    // One request keeps the plain identifier; several are told apart by alarm, repeat and instant.
    let ownIndex = item.components.indices.first { item.components[$0].uid == uid && extras($0).own != nil && !uid.isEmpty }
    let base = ownIndex.flatMap { extras($0).own?.pending.request.identifier } ?? plainBase ?? identifierBase(uid)
    var used = Set<String>()
    return made.map { entry in
      var imported = entry.0
      var id = made.count == 1 ? base : base + entry.suffix
      if used.contains(id) { id += "-\(used.count)" }
      used.insert(id)
      imported.request.identifier = id
      return imported
    }
  }

  /// `ics:<UID>` (a long UID by its digest: identifiers are at most 256 bytes).
  static func identifierBase(_ uid: String) -> String {
    if !uid.isEmpty, uid.utf8.count <= 200 { return "ics:" + uid }
    return "ics:" + String(RequestExport.uid(app: "ics", identifier: uid).dropFirst(6).prefix(16))
  }

  /// Title SUMMARY, body the alarm's DESCRIPTION (unless it only repeats the summary) or the
  /// LOCATION; an AUDIO alarm plays the default sound. A Chime export edited in a calendar app
  /// keeps the rest of its content.
  static func content(_ component: CalendarComponent, _ alarm: PlannedAlarm, own: Own?, description: String?) -> NotificationContent {
    let summary = component.summary ?? ""
    if var content = own?.content {
      if !summary.isEmpty { content.title = summary }
      content.body = description ?? content.body
      return content
    }
    var body = alarm.alarmDescription ?? ""
    if body.trimmingWhitespace().isEmpty || body == summary { body = component.location ?? "" }
    var content = NotificationContent(title: summary.isEmpty ? "(untitled)" : summary, body: body)
    if case .audio = alarm.action { content.sound = .default }
    return content
  }
}
