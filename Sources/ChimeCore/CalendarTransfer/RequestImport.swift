/// How an iCalendar file becomes requests (`chime import FILE.ics`, issue 41 item 7). Pure:
/// the item comes parsed (ChimeCalendar), with what the planner does not need read beside it
/// (`Extras`); time and zones are passed in.
///
/// - A VEVENT Chime exported (X-CHIME-REQUEST) whose schedule was not edited (its
///   X-CHIME-SCHEDULE still matches) is restored as it was: the same identifier, content,
///   trigger and missed-fire policy; a SUMMARY or DESCRIPTION edited in a calendar app becomes
///   the title or body. A one-shot interval becomes the instant it was to fire at (an interval
///   counts from when it is added); a repeating interval starts again from the import, its
///   phase is not kept (no trigger counts an interval from a given instant).
/// - Any other VEVENT or VTODO (a calendar app's, or Chime's edited there) gives a request per
///   DISPLAY or AUDIO alarm (and per REPEAT), firing at the instants `CalendarAlarmPlanner`
///   finds: an alarm of a recurring series is one RFC 5545 rule trigger when the series' rule,
///   moved by the alarm's offset, gives exactly the planner's instants for the coming year
///   (`RequestImport.recurringTrigger`); otherwise (overrides, RDATE, VTIMEZONE-only zones,
///   offsets across a clock change, acknowledged alarms) each instant of the next
///   `horizonDays` (from a month before its start when it starts later) is a one-shot request,
///   at most `oneShotsPerAlarm` of them.
/// - A component without a DISPLAY or AUDIO alarm, or whose alarms all lie in the past, is
///   skipped, with the reason.
public enum RequestImport {
  /// X-CHIME-* of a component, decoded by the caller (the record codec is not ChimeCore's).
  public struct Own: Hashable, Sendable {
    public var app: String
    public var pending: PendingRequest
    public var schedule: String?
    /// The component's X-CHIME-* values by upper-cased name (`ReadableProperties` win).
    public var properties: [String: String]

    public init(app: String, pending: PendingRequest, schedule: String?, properties: [String: String] = [:]) {
      self.app = app
      self.pending = pending
      self.schedule = schedule
      self.properties = properties
    }

    /// The recorded request's content with the readable X-CHIME-* values put in.
    var content: NotificationContent {
      var content = pending.request.content
      ReadableProperties.apply(properties, to: &content)
      return content
    }
  }

  /// What an import reads of a component besides `CalendarComponent` (same order as
  /// `CalendarItem.components`).
  public struct Extras: Hashable, Sendable {
    public var description: String?
    public var own: Own?

    public init(description: String? = nil, own: Own? = nil) {
      self.description = description
      self.own = own
    }
  }

  public struct Imported: Hashable, Sendable {
    /// The app it was exported from (X-CHIME-APP), nil for a calendar app's component.
    public var app: String?
    public var request: NotificationRequest
    /// Its first fire if added at the import's `now`.
    public var firstFire: Instant
    /// `VEVENT <uid> "summary"`.
    public var source: String
    public var note: String
  }

  public struct Skipped: Hashable, Sendable {
    public var source: String
    public var reason: String
  }

  public struct Outcome: Hashable, Sendable {
    public var imported: [Imported] = []
    public var skipped: [Skipped] = []
  }

  /// How far ahead a calendar's alarms are looked for.
  public static let horizonDays = 366
  /// One-shot requests made for one alarm of a series that no rule trigger reproduces.
  public static let oneShotsPerAlarm = 100
  /// Requests one import makes.
  public static let requestLimit = 1000

  public static func plan(_ item: CalendarItem, extras: [Extras], now: Instant, zones: CalendarZones) -> Outcome {
    var outcome = Outcome()
    var restored = Set<Int>()
    for (i, component) in item.components.enumerated() {
      guard i < extras.count, let own = extras[i].own, component.recurrenceID == nil,
            own.schedule == ScheduleFingerprint.of(component) else { continue }
      restored.insert(i)
      switch restore(own, component, description: extras[i].description, now: now, zones: zones) {
      case .success(let imported): outcome.imported.append(imported)
      case .failure(let gap): outcome.skipped.append(Skipped(source: source(component), reason: gap.message))
      }
    }
    let until = now.adding(seconds: Double(horizonDays) * 86_400)
    var rest = item
    // Restored components stay in the item (they may be the master of an override) but plan nothing.
    for i in restored { rest.components[i].alarms = [] }
    let plan = CalendarAlarmPlanner.plan(rest, after: now, until: until, zones: zones)
    var byUID: [String: [PlannedAlarm]] = [:]
    for alarm in plan.alarms { byUID[alarm.uid, default: []].append(alarm) }
    var seen = Set<String>()
    for (i, component) in item.components.enumerated() where !restored.contains(i) {
      let notified = component.alarms.contains { $0.action == .display || $0.action == .audio }
      if !notified {
        let others = component.alarms.isEmpty ? "no VALARM" : "no DISPLAY or AUDIO alarm (EMAIL and PROCEDURE are not notified)"
        outcome.skipped.append(Skipped(source: source(component), reason: others))
        continue
      }
      // A component without a UID (against RFC 5545, but seen) is one of its own.
      var alarms: [PlannedAlarm]
      if component.uid.isEmpty {
        alarms = plan.alarms.filter { $0.uid.isEmpty && $0.componentIndex == i }
      } else {
        guard !seen.contains(component.uid) else { continue }
        seen.insert(component.uid)
        alarms = byUID[component.uid] ?? []
      }
      var end = until
      // An event that starts after the window: its own window, from a month before its start
      // (an alarm may be that early) rather than a window of decades for every component.
      if alarms.isEmpty, let start = component.start, CalendarTimes.unixSeconds(start.wall) * 1000 > until.unixMillis {
        var one = rest
        let indices = rest.components.indices.filter { component.uid.isEmpty ? $0 == i : rest.components[$0].uid == component.uid }
        one.components = indices.map { rest.components[$0] }
        let from = Instant(unixMillis: (CalendarTimes.unixSeconds(start.wall) - 31 * 86_400) * 1000)
        end = from.adding(seconds: Double(horizonDays) * 86_400)
        alarms = CalendarAlarmPlanner.plan(one, after: from, until: end, zones: zones).alarms.map { alarm in
          var alarm = alarm
          alarm.componentIndex = indices[alarm.componentIndex]  // back to its place in the whole item
          return alarm
        }
      }
      guard !alarms.isEmpty else {
        outcome.skipped.append(Skipped(source: source(component), reason: "no alarm falls between now and \(horizonDays) days after its start"))
        continue
      }
      let extrasOf = { (index: Int) in index < extras.count ? extras[index] : Extras() }
      outcome.imported += requests(uid: component.uid, alarms: alarms, item: item, extras: extrasOf, now: now, until: end, zones: zones,
                                   base: component.uid.isEmpty ? "ics:no-uid-\(i)" : nil)
    }
    for (i, problem) in plan.problems.enumerated() where i < 20 {
      outcome.skipped.append(Skipped(source: "item", reason: problem))
    }
    if outcome.imported.count > requestLimit {
      outcome.skipped.append(Skipped(source: "file", reason: "only the first \(requestLimit) of \(outcome.imported.count) requests are imported"))
      outcome.imported = Array(outcome.imported.prefix(requestLimit))
    }
    return outcome
  }

  /// Chime's own exported request, as it was.
  static func restore(_ own: Own, _ component: CalendarComponent, description: String?, now: Instant,
                      zones: CalendarZones) -> Result<Imported, RuleGap> {
    var request = own.pending.request
    let c = request.content
    request.content = own.content
    let exportedSummary = [c.title, c.subtitle, c.body, request.identifier].first { !$0.isEmpty } ?? request.identifier
    if let summary = component.summary, summary != exportedSummary { request.content.title = summary }
    if (description ?? "") != c.body { request.content.body = description ?? "" }
    var note = "restored as exported"
    if case .timeInterval(let t)? = request.trigger {
      if t.repeats {
        note = "an interval counts from when it is added: it starts again now"
      } else {
        let at = CivilDate.floorDiv(own.pending.nextFire.unixMillis + 999, 1000)
        guard at * 1000 > now.unixMillis else { return .failure(RuleGap("its time, \(own.pending.nextFire), has passed")) }
        request.trigger = .calendar(CalendarTrigger(components: CalendarSpec.instant(unixSeconds: at)))
        note = "its interval becomes the instant it was to fire at"
      }
    }
    do {
      let first = try TriggerPlanner.firstFire(of: request.trigger, added: now, zone: zones.userZone)
      return .success(Imported(app: own.app, request: request, firstFire: first, source: source(component), note: note))
    } catch {
      return .failure(RuleGap("its trigger fires no more: \(error.message)"))
    }
  }

  static func source(_ c: CalendarComponent) -> String {
    var text = "\(c.kind.rawValue) \(c.uid.isEmpty ? "(no UID)" : String(c.uid.prefix(120)))"
    if let id = c.recurrenceID { text += " occurrence \(id)" }
    if let summary = c.summary { text += " \"\(summary.prefix(80))\"" }
    return text
  }
}
