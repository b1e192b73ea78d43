/// What chimed asks the `chime-calendar write-back` helper to write into an item, and what came
/// of it. An alarm is named as the planner names it (UID, occurrence, instant, repeat), not by
/// where its VALARM was: the file may have changed since it was scanned, so the helper plans
/// the current bytes again, finds the alarm there and edits those bytes (`apply`).
extension AlarmWriteBack {
  /// One alarm the user dismissed or snoozed.
  public struct Request: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
      /// Dismissed (closed, removed, answered): ACKNOWLEDGED.
      case dismiss
      /// Snoozed until that instant: ACKNOWLEDGED and a snooze alarm.
      case snooze(until: Instant)
    }

    /// The item's file name in its collection (the file's path for a one-file calendar).
    public var file: String
    public var uid: String
    public var recurrenceID: PlannedAlarm.OccurrenceID?
    public var at: Instant
    public var repeatIndex: Int
    public var kind: Kind

    public init(file: String, uid: String, recurrenceID: PlannedAlarm.OccurrenceID?, at: Instant, repeatIndex: Int, kind: Kind) {
      self.file = file
      self.uid = uid
      self.recurrenceID = recurrenceID
      self.at = at
      self.repeatIndex = repeatIndex
      self.kind = kind
    }

    /// One command-line argument: `D|S <file> <uid> <recurrence> <at ms> <repeat> [<until ms>]`,
    /// tab-separated and escaped as `CalendarScanLine` fields are.
    public var encoded: String {
      var fields = ["D", CalendarScanLine.escape(file), CalendarScanLine.escape(uid), CalendarScanLine.recurrence(recurrenceID),
                    String(at.unixMillis), String(repeatIndex)]
      if case .snooze(let until) = kind {
        fields[0] = "S"
        fields.append(String(until.unixMillis))
      }
      return fields.joined(separator: "\t")
    }

    /// Reads `encoded`; nil when it is not that form.
    public init?(decoding text: String) {
      let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(CalendarScanLine.unescape)
      guard fields.count >= 6, let recurrence = CalendarScanLine.recurrence(decoding: fields[3]), let at = Int64(fields[4]),
            let repeatIndex = Int(fields[5]) else { return nil }
      switch (fields[0], fields.count) {
      case ("D", 6): kind = .dismiss
      case ("S", 7):
        guard let until = Int64(fields[6]) else { return nil }
        kind = .snooze(until: Instant(unixMillis: until))
      default: return nil
      }
      (file, uid, recurrenceID, self.at, self.repeatIndex) = (fields[1], fields[2], recurrence, Instant(unixMillis: at), repeatIndex)
    }
  }

  /// What one request came to: written into the file, nothing to write (why), or not written (why).
  public enum Outcome: Hashable, Sendable {
    case written
    case unchanged(String)
    case failed(String)

    /// One output line of the helper: `W`, `U <why>` or `X <why>` after the request's number.
    public func encoded(number: Int) -> String {
      switch self {
      case .written: "W\t\(number)"
      case .unchanged(let why): "U\t\(number)\t" + CalendarScanLine.escape(why)
      case .failed(let why): "X\t\(number)\t" + CalendarScanLine.escape(why)
      }
    }

    /// Reads an `encoded` line: the request's number and its outcome; nil when it is not one.
    public static func decoding(_ line: Substring) -> (number: Int, outcome: Outcome)? {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(CalendarScanLine.unescape)
      guard fields.count >= 2, let number = Int(fields[1]) else { return nil }
      switch (fields[0], fields.count) {
      case ("W", 2): return (number, .written)
      case ("U", 3): return (number, .unchanged(fields[2]))
      case ("X", 3): return (number, .failed(fields[2]))
      default: return nil
      }
    }
  }

  /// `request` carried out on an item's current `text`, which parses as `item`: the alarm is
  /// found by planning the item around its instant (in `zones`), then acknowledged at `now`, or
  /// snoozed (`snoozeUID` names the new alarm, `alarmUID` the snoozed one when it has no UID).
  /// Returns the new text, or nil with why nothing is written: the alarm is no longer in the
  /// item (moved, deleted), or a dismissal finds it acknowledged already.
  ///
  /// - Throws: `Failure` when the alarm found cannot be located in the text (an item whose
  ///   components are not inside a VCALENDAR).
  public static func apply(_ request: Request, to text: [UInt8], item: CalendarItem, zones: CalendarZones, now: Instant,
                           snoozeUID: String, alarmUID: String) throws(Failure) -> (text: [UInt8]?, why: String) {
    let plan = CalendarAlarmPlanner.plan(item, after: request.at, until: Instant(unixMillis: request.at.unixMillis + 1000), zones: zones)
    func same(_ a: PlannedAlarm) -> Bool {
      a.uid == request.uid && a.recurrenceID == request.recurrenceID && a.repeatIndex == request.repeatIndex && a.at == request.at
    }
    let live = plan.alarms.first(where: same)
    guard let found = live ?? plan.acknowledged.first(where: same) else {
      return (nil, "the alarm is no longer in the item (its event changed or was deleted)")
    }
    if live == nil, request.kind == .dismiss { return (nil, "already acknowledged") }
    let target = Target(uid: found.uid, componentIndex: found.componentIndex, alarmIndex: found.alarmIndex)
    // A byte order mark (some Windows exports) is kept and edited past.
    let bom: [UInt8] = text.starts(with: [0xEF, 0xBB, 0xBF]) ? [0xEF, 0xBB, 0xBF] : []
    let body = Array(text.dropFirst(bom.count))
    switch request.kind {
    case .dismiss:
      return (bom + (try acknowledge(body, target, at: now)), "acknowledged")
    case .snooze(let until):
      return (bom + (try snooze(body, target, at: now, until: until, snoozeUID: snoozeUID, alarmUID: alarmUID)), "snoozed")
    }
  }
}
