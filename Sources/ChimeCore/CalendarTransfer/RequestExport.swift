/// How a pending request becomes a VEVENT (`chime export --ics`, issue 41 item 7). Pure: the
/// zone floating triggers follow is passed in.
///
/// - DTSTART is the request's next fire: in UTC for an interval trigger, in its trigger's zone
///   (TZID of the IANA name) for a calendar trigger, floating when the trigger floats. An RFC
///   5545 rule trigger keeps its own start (or its first occurrence, `firstOccurrence`), RRULE
///   and EXDATE (its COUNT counts from there), so a calendar app shows the series from its start.
/// - A repeating interval is `FREQ=SECONDLY/MINUTELY/HOURLY/DAILY/WEEKLY;INTERVAL=n` from the next
///   fire in UTC (real time, as the interval is); a repeating calendar pattern its equivalent
///   RRULE (`CalendarTrigger.equivalentRule`); an end becomes COUNT (the fires left) or UNTIL.
/// - What RFC 5545 has no property for travels in X-CHIME-REQUEST (`request`, written by the
///   caller as the store's record in base64), beside readable X-CHIME-APP, X-CHIME-IDENTIFIER
///   and `ReadableProperties` (subtitle, category, thread, sound, user info).
///   Its repeat count is the fires left, as the RRULE's COUNT is.
public enum RequestExport {
  public struct Exported: Hashable, Sendable {
    /// The event, without X-CHIME-REQUEST (the caller encodes `request` into it).
    public var event: ExportedEvent
    /// The request as it is to be restored: attachments left out, a repeat count reduced to the
    /// fires left.
    public var request: PendingRequest
    /// What the calendar cannot show as Chime does (one sentence each).
    public var notes: [String]
  }

  public static let appProperty = "X-CHIME-APP"
  public static let identifierProperty = "X-CHIME-IDENTIFIER"
  public static let requestProperty = "X-CHIME-REQUEST"

  /// A UID stable for an app's request: the same request exported twice has the same UID, so a
  /// calendar app that imports the file again updates the event instead of adding a second.
  public static func uid(app: String, identifier: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in app.utf8 + [0] + identifier.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "chime-" + String(repeating: "0", count: 16 - hex.count) + hex + "@" + app
  }

  /// The event for `pending` of `app`, or why it is not exported (a snoozed notification).
  public static func export(_ pending: PendingRequest, app: String, zone: Zone) -> Result<Exported, RuleGap> {
    guard pending.snoozeCount == 0 else {
      return .failure(RuleGap("a snoozed notification is a delivered one coming back, not a request of its own: not exported"))
    }
    guard let trigger = pending.request.trigger else { return .failure(RuleGap("it has no trigger")) }
    var request = pending.request
    var notes: [String] = []
    if !request.content.attachments.isEmpty {
      notes.append("its \(request.content.attachments.count) attachment(s) are not exported")
      request.content.attachments = []
    }
    // The fire at DTSTART is the first of those left.
    let fired = pending.fireCount
    func remaining(_ end: RepeatEnd?) -> RepeatEnd? {
      guard var end else { return nil }
      if let count = end.count { end.count = max(1, count - Int(min(fired, UInt64(count)))) }
      return end
    }
    let next = Instant(unixMillis: CivilDate.floorDiv(pending.nextFire.unixMillis + 999, 1000) * 1000)
    var start = CalendarTime(wall(next, .utc), .utc)
    var rule: String?
    var exceptions: [CalendarTime] = []
    switch trigger {
    case .timeInterval(var t):
      if t.repeats {
        let seconds = Int64(t.seconds.rounded())
        if Double(seconds) != t.seconds { notes.append("its interval is rounded to \(seconds) s in the RRULE") }
        rule = intervalRule(seconds) + endParts(remaining(t.end), start: start, zone: zone)
        t.end = remaining(t.end)
        request.trigger = .timeInterval(t)
      }
    case .calendar(var c):
      start = time(next, zoneID: c.components.timeZone, floating: zone)
      if c.repeats {
        switch c.equivalentRule() {
        case .success(let text): rule = text + endParts(remaining(c.end), start: start, zone: zone)
        case .failure(let gap): notes.append("\(gap.message): the calendar shows only its next fire")
        }
        c.end = remaining(c.end)
        request.trigger = .calendar(c)
      }
    case .recurrence(let r):
      let form = self.form(zoneID: r.timeZone)
      start = CalendarTime(firstOccurrence(r, zone: zone), form)
      rule = r.rule.text
      exceptions = r.exclusions.map { CalendarTime($0, form) }
    }
    let content = request.content
    let summary = [content.title, content.subtitle, content.body, request.identifier].first { !$0.isEmpty } ?? request.identifier
    let event = ExportedEvent(
      uid: uid(app: app, identifier: request.identifier), summary: summary, description: content.body, start: start, rule: rule,
      exceptionDates: exceptions, alarmDescription: content.body.isEmpty ? summary : content.body,
      properties: [.init(appProperty, app), .init(identifierProperty, request.identifier)] + ReadableProperties.of(content))
    var stored = PendingRequest(request: request, nextFire: pending.nextFire, added: pending.added)
    stored.fireCount = 0
    return .success(Exported(event: event, request: stored, notes: notes))
  }

  /// The wall time a rule's DTSTART is written with: its start when the rule makes it, else
  /// its first occurrence (excluded ones count). RFC 5545 readers always take DTSTART as the
  /// first occurrence (and count it in COUNT); Chime's engine, as dateutil, fires the start only
  /// when the rule makes it. From the first occurrence both read the same set: COUNT counts
  /// from there in both, and the period it falls in is one the rule's INTERVAL steps on.
  static func firstOccurrence(_ r: Recurrence, zone: Zone) -> LocalDateTime {
    var bare = r
    bare.exclusions = []
    return RecurrenceEngine.occurrences(count: 1, recurrence: bare, zone: zone).first?.wall ?? r.start
  }

  /// `FREQ=…;INTERVAL=…` for a real-time interval of `seconds` (UTC has no clock changes, so a
  /// DAILY or WEEKLY step from a UTC start is exact).
  static func intervalRule(_ seconds: Int64) -> String {
    let units: [(Int64, String)] = [(604_800, "WEEKLY"), (86_400, "DAILY"), (3600, "HOURLY"), (60, "MINUTELY")]
    for (size, name) in units where seconds % size == 0 {
      return "FREQ=\(name)" + (seconds == size ? "" : ";INTERVAL=\(seconds / size)")
    }
    return "FREQ=SECONDLY;INTERVAL=\(max(seconds, 1))"
  }

  /// `;COUNT=n` or `;UNTIL=…` (UTC for a UTC or zoned start, a floating wall time in `zone` for a
  /// floating one, as RFC 5545 section 3.3.10 wants); RFC 5545 allows one of them, so UNTIL is
  /// dropped beside COUNT (Chime stops at the earlier; the restored request keeps both).
  static func endParts(_ end: RepeatEnd?, start: CalendarTime, zone: Zone) -> String {
    guard let end else { return "" }
    if let count = end.count { return ";COUNT=\(count)" }
    guard let until = end.until else { return "" }
    let seconds = Instant(unixMillis: CivilDate.floorDiv(until.unixMillis, 1000) * 1000)
    if start.form == .floating { return ";UNTIL=" + wall(seconds, zone).compactText }
    return ";UNTIL=" + wall(seconds, .utc).compactText + "Z"
  }

  static func time(_ instant: Instant, zoneID: String?, floating: Zone) -> CalendarTime {
    switch form(zoneID: zoneID) {
    case .floating: return CalendarTime(wall(instant, floating), .floating)
    case .zoned(let id): return CalendarTime(wall(instant, Zone.named(id) ?? .utc), Zone.named(id) == nil ? .utc : .zoned(id))
    default: return CalendarTime(wall(instant, .utc), .utc)
    }
  }

  static func form(zoneID: String?) -> CalendarTime.Form {
    guard let id = zoneID, !id.isEmpty else { return .floating }
    return ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"].contains(id) ? .utc : .zoned(id)
  }

  static func wall(_ instant: Instant, _ zone: Zone) -> LocalDateTime {
    LocalDateTime(wallSeconds: CivilDate.floorDiv(instant.unixMillis, 1000) + Int64(zone.secondsFromUTC(at: instant)))
  }
}
