public import ChimeCore

/// What a scan of some of a calendar's files found, applied at once: for each file, alarms no
/// longer planned are withdrawn, new ones become pending requests of the calendar's app
/// (identifiers are derived from what an alarm is, so one that did not change keeps its pending
/// request), alarms acknowledged in the item (on any device) are withdrawn wherever they are
/// (pending, delivered, snoozed), and the file's record (item or error) is replaced. A whole
/// scan also forgets files that are gone from the collection. Fails with NOT_FOUND
/// `CALENDAR_NOT_FOUND` when the calendar was removed meanwhile, so nothing of it comes back.
public struct ApplyCalendarScan: Mutation {
  /// Which alarm of its item a request is, as the planner names it (its instant is `at`).
  public struct Origin: Hashable, Sendable {
    public var uid: String
    /// `CalendarScanLine.recurrence`'s text.
    public var recurrence: String
    public var repeatIndex: Int

    public init(uid: String, recurrence: String, repeatIndex: Int) {
      self.uid = uid
      self.recurrence = recurrence
      self.repeatIndex = repeatIndex
    }
  }

  /// One alarm a file asks for in the scan's window.
  public struct Planned: Sendable {
    public var identifier: String
    public var at: Instant
    public var origin: Origin
    /// The pending request to add when the alarm has none yet (made, and packed, before the
    /// transaction); nil for one planned before that fell due already: it is not added again.
    public var add: AddPending?

    public init(_ add: AddPending, origin: Origin) {
      identifier = add.pending.request.identifier
      at = add.pending.nextFire
      self.origin = origin
      self.add = add
    }

    public init(identifier: String, at: Instant, origin: Origin) {
      self.identifier = identifier
      self.at = at
      self.origin = origin
    }
  }

  /// One file's outcome.
  public struct File: Sendable {
    public enum Outcome: Sendable {
      /// Read as an item: the alarms it asks for in the window, and the identifiers of those in
      /// it that are acknowledged.
      case item([Planned], acknowledged: [String] = [])
      /// Skipped: why.
      case failed(String)
      /// Not there any more.
      case gone
    }

    public var name: String
    public var outcome: Outcome

    public init(name: String, outcome: Outcome) {
      self.name = name
      self.outcome = outcome
    }
  }

  /// How long a row outlives its request once that is neither pending, delivered nor snoozed:
  /// a dismissal committed just before a scan still finds which alarm to write back.
  public static let rowKeepMillis: Int64 = 86_400_000

  public let source: String
  public let app: String
  public let files: [File]
  /// A whole scan: files recorded before and not in `files` are gone.
  public let whole: Bool
  /// Set on a whole scan: the end of the window it planned.
  public let plannedUntil: Instant?
  /// The start of the window planned: a pending alarm due before it that the scan does not
  /// plan is left to the scheduler (the scan cannot tell whether it still stands).
  public let from: Instant
  public let at: Instant

  public init(source: String, files: [File], whole: Bool, plannedUntil: Instant?, from: Instant? = nil, at: Instant) {
    self.source = source
    app = CalendarSource.appID(for: source)
    self.files = files
    self.whole = whole
    self.plannedUntil = plannedUntil
    self.from = from ?? at
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    public var discardedFiles: [String] = []
    /// The pending requests added, for the scheduler.
    public var added: [ScheduleKey] = []
    /// Pending requests withdrawn.
    public var removed: Int = 0
    /// Delivered or snoozed notifications withdrawn because their alarm was acknowledged.
    public var acknowledged: [String] = []
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    t.applyingCalendarScan = true
    defer { t.applyingCalendarScan = false }
    guard try Row.fetchOne(t.db.cachedStatement(sql: "SELECT 1 FROM calendar_source WHERE name = ?"), arguments: [source]) != nil else {
      throw ChimeError(.calendarNotFound, "no calendar named \(source) is registered", field: "name")
    }
    var outcome = Outcome()
    var files = self.files
    if whole {
      let seen = Set(files.map(\.name))
      let recorded = try String.fetchAll(t.db.cachedStatement(sql: "SELECT file FROM calendar_file WHERE source = ?"), arguments: [source])
      let held = try String.fetchAll(t.db.cachedStatement(sql: "SELECT DISTINCT file FROM calendar_alarm WHERE source = ?"), arguments: [source])
      for name in Set(recorded + held) where !seen.contains(name) { files.append(File(name: name, outcome: .gone)) }
    }
    var withdrawPending: [String] = []
    var withdrawDelivered: [String] = []
    for file in files {
      var planned: [String: Planned] = [:]
      var acknowledged: Set<String> = []
      if case .item(let alarms, let acked) = file.outcome {
        for alarm in alarms where planned[alarm.identifier] == nil { planned[alarm.identifier] = alarm }
        acknowledged = Set(acked).subtracting(planned.keys)
      }
      let before = try rows(t, file: file.name)
      for (identifier, due) in before.mapValues(\.due) where planned[identifier] == nil {
        var pending = try t.exists(.pending, app: app, identifier: identifier)
        var shown = try t.exists(.delivered, app: app, identifier: identifier) || t.exists(.snoozed, app: app, identifier: identifier)
        // Acknowledged anywhere: it goes from wherever it is. Otherwise only a pending one in
        // the window goes: one that fired may be showing or snoozed, and stays so; one due
        // before the window is the scheduler's (its missed-fire rule).
        if acknowledged.contains(identifier) || (pending && due >= from.unixMillis) {
          if pending { withdrawPending.append(identifier) }
          pending = false
        }
        if acknowledged.contains(identifier), shown {
          withdrawDelivered.append(identifier)
          shown = false
        }
        // A row goes with its alarm, except one in the past for a day: a dismissal committed
        // just before this scan still finds which alarm to write back.
        if !pending && !shown && (due >= at.unixMillis || due < at.unixMillis - Self.rowKeepMillis) {
          try t.db.cachedStatement(sql: "DELETE FROM calendar_alarm WHERE source = ? AND identifier = ?").execute(arguments: [source, identifier])
        }
      }
      // Acknowledged alarms whose rows another file holds, or none does (a row gone meanwhile).
      for identifier in acknowledged.sorted() where before[identifier] == nil {
        if try t.exists(.pending, app: app, identifier: identifier) { withdrawPending.append(identifier) }
        if try t.exists(.delivered, app: app, identifier: identifier) || t.exists(.snoozed, app: app, identifier: identifier) {
          withdrawDelivered.append(identifier)
        }
      }
      let remember = try t.db.cachedStatement(sql: """
        INSERT OR REPLACE INTO calendar_alarm (source, identifier, file, at, uid, recurrence, repeat_index) VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
      for (identifier, alarm) in planned.sorted(by: { $0.key < $1.key }) {
        // A row is written when it is new or says something else now (a v13 row, an alarm
        // whose VALARM moved); one planned before and due already gets none if it has none.
        let row = before[identifier]
        if row.map({ $0 != Held(due: alarm.at.unixMillis, origin: alarm.origin) }) ?? (alarm.add != nil) {
          try remember.execute(arguments: [source, identifier, file.name, alarm.at.unixMillis, alarm.origin.uid, alarm.origin.recurrence,
                                           alarm.origin.repeatIndex])
        }
        guard row == nil, let add = alarm.add else { continue }
        let added = try add.apply(in: t)
        outcome.events += added.events
        outcome.discardedFiles += added.discardedFiles
        outcome.added.append(ScheduleKey(due: add.pending.nextFire, app: app, identifier: identifier))
      }
      switch file.outcome {
      case .item(let alarms, _):
        try recordFile(t, file.name, error: nil, alarms: alarms.count { $0.at >= at })
      case .failed(let message):
        try recordFile(t, file.name, error: message, alarms: 0)
      case .gone:
        try t.db.cachedStatement(sql: "DELETE FROM calendar_file WHERE source = ? AND file = ?").execute(arguments: [source, file.name])
      }
    }
    if !withdrawPending.isEmpty {
      let removed = try Remove(from: .pending, app: app, identifiers: withdrawPending, at: at).apply(in: t)
      outcome.events += removed.events
      outcome.discardedFiles += removed.discardedFiles
      outcome.removed = removed.removed.count
    }
    if !withdrawDelivered.isEmpty {
      // Also ends a snooze of the same identifier (`Remove`).
      let removed = try Remove(from: .delivered, app: app, identifiers: withdrawDelivered, at: at).apply(in: t)
      outcome.events += removed.events
      outcome.discardedFiles += removed.discardedFiles
      outcome.acknowledged = removed.removed
    }
    if let plannedUntil {
      try t.db.cachedStatement(sql: "UPDATE calendar_source SET last_scan = ?, planned_until = ? WHERE name = ?")
        .execute(arguments: [at.unixMillis, plannedUntil.unixMillis, source])
    } else {
      try t.db.cachedStatement(sql: "UPDATE calendar_source SET last_scan = ? WHERE name = ?").execute(arguments: [at.unixMillis, source])
    }
    return outcome
  }

  /// What a row says about its alarm.
  private struct Held: Equatable {
    var due: Int64
    var origin: Origin
  }

  /// The file's rows, by identifier.
  private func rows(_ t: WriteTransaction, file: String) throws -> [String: Held] {
    let held = try t.db.cachedStatement(sql: "SELECT identifier, at, uid, recurrence, repeat_index FROM calendar_alarm WHERE source = ? AND file = ?")
    var before: [String: Held] = [:]
    for row in try Row.fetchAll(held, arguments: [source, file]) {
      before[try row.decode(atIndex: 0)] = Held(due: try row.decode(atIndex: 1), origin: Origin(
        uid: try row.decode(atIndex: 2), recurrence: try row.decode(atIndex: 3), repeatIndex: try row.decode(atIndex: 4)))
    }
    return before
  }

  private func recordFile(_ t: WriteTransaction, _ name: String, error: String?, alarms: Int) throws {
    try t.db.cachedStatement(sql: """
      INSERT INTO calendar_file (source, file, error, alarms) VALUES (?, ?, ?, ?)
      ON CONFLICT (source, file) DO UPDATE SET error = excluded.error, alarms = excluded.alarms
      """).execute(arguments: [source, name, error, alarms])
  }
}
