public import ChimeCore

/// What a scan of some of a calendar's files found, applied at once: for each file, alarms no
/// longer planned are withdrawn, new ones become pending requests of the calendar's app
/// (identifiers are derived from what an alarm is, so one that did not change keeps its pending
/// request), and the file's record (item or error) is replaced. A whole scan also forgets files
/// that are gone from the collection. Fails with NOT_FOUND `CALENDAR_NOT_FOUND` when the
/// calendar was removed meanwhile, so nothing of it comes back.
public struct ApplyCalendarScan: Mutation {
  /// One file's outcome.
  public struct File: Sendable {
    public enum Outcome: Sendable {
      /// Read as an item: the alarms it asks for in the window, each an add of a pending
      /// request of the calendar's app (made, and packed, before the transaction).
      case item([AddPending])
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

  public let source: String
  public let app: String
  public let files: [File]
  /// A whole scan: files recorded before and not in `files` are gone.
  public let whole: Bool
  /// Set on a whole scan: the end of the window it planned.
  public let plannedUntil: Instant?
  public let at: Instant

  public init(source: String, files: [File], whole: Bool, plannedUntil: Instant?, at: Instant) {
    self.source = source
    app = CalendarSource.appID(for: source)
    self.files = files
    self.whole = whole
    self.plannedUntil = plannedUntil
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    public var discardedFiles: [String] = []
    /// The pending requests added, for the scheduler.
    public var added: [ScheduleKey] = []
    public var removed: Int = 0
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
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
    var withdrawn: [String] = []
    let held = try t.db.cachedStatement(sql: "SELECT identifier, at FROM calendar_alarm WHERE source = ? AND file = ?")
    let forget = try t.db.cachedStatement(sql: "DELETE FROM calendar_alarm WHERE source = ? AND identifier = ?")
    let remember = try t.db.cachedStatement(sql: "INSERT OR REPLACE INTO calendar_alarm (source, identifier, file, at) VALUES (?, ?, ?, ?)")
    for file in files {
      var before: [String: Int64] = [:]
      for row in try Row.fetchAll(held, arguments: [source, file.name]) { before[try row.decode(atIndex: 0)] = try row.decode(atIndex: 1) }
      var wanted: [String: AddPending] = [:]
      if case .item(let alarms) = file.outcome {
        for alarm in alarms { wanted[alarm.pending.request.identifier] = alarm }
      }
      for (identifier, due) in before where wanted[identifier] == nil {
        // Only a request still pending is withdrawn: one that fired may be showing or snoozed,
        // and stays so. One already due (it fell due while chimed was stopped) is left to the
        // scheduler's missed-fire rule, the window starting now no longer holding it.
        let pending = try t.exists(.pending, app: app, identifier: identifier)
        if pending && due < at.unixMillis { continue }
        if pending { withdrawn.append(identifier) }
        try forget.execute(arguments: [source, identifier])
      }
      for (identifier, add) in wanted.sorted(by: { $0.key < $1.key }) where before[identifier] == nil {
        let pending = add.pending
        let added = try add.apply(in: t)
        outcome.events += added.events
        outcome.discardedFiles += added.discardedFiles
        outcome.added.append(ScheduleKey(due: pending.nextFire, app: app, identifier: identifier))
        try remember.execute(arguments: [source, identifier, file.name, pending.nextFire.unixMillis])
      }
      switch file.outcome {
      case .item(let alarms):
        try recordFile(t, file.name, error: nil, alarms: alarms.count)
      case .failed(let message):
        try recordFile(t, file.name, error: message, alarms: 0)
      case .gone:
        try t.db.cachedStatement(sql: "DELETE FROM calendar_file WHERE source = ? AND file = ?").execute(arguments: [source, file.name])
      }
    }
    if !withdrawn.isEmpty {
      let removed = try Remove(from: .pending, app: app, identifiers: withdrawn, at: at).apply(in: t)
      outcome.events += removed.events
      outcome.discardedFiles += removed.discardedFiles
      outcome.removed = removed.removed.count
    }
    if let plannedUntil {
      try t.db.cachedStatement(sql: "UPDATE calendar_source SET last_scan = ?, planned_until = ? WHERE name = ?")
        .execute(arguments: [at.unixMillis, plannedUntil.unixMillis, source])
    } else {
      try t.db.cachedStatement(sql: "UPDATE calendar_source SET last_scan = ? WHERE name = ?").execute(arguments: [at.unixMillis, source])
    }
    return outcome
  }

  private func recordFile(_ t: WriteTransaction, _ name: String, error: String?, alarms: Int) throws {
    try t.db.cachedStatement(sql: """
      INSERT INTO calendar_file (source, file, error, alarms) VALUES (?, ?, ?, ?)
      ON CONFLICT (source, file) DO UPDATE SET error = excluded.error, alarms = excluded.alarms
      """).execute(arguments: [source, name, error, alarms])
  }
}
