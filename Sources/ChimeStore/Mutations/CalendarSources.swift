public import ChimeCore

/// Registers a calendar and sets its app's categories (the alarms' Snooze and Dismiss). Fails
/// with ALREADY_EXISTS `CALENDAR_EXISTS` when the name is taken.
public struct AddCalendarSource: Mutation {
  public let source: CalendarSource
  public let categories: [NotificationCategory]

  public init(source: CalendarSource, categories: [NotificationCategory]) {
    self.source = source
    self.categories = categories
  }

  public var app: String { source.appID }

  public func apply(in t: WriteTransaction) throws {
    let taken = try Row.fetchOne(t.db.cachedStatement(sql: "SELECT 1 FROM calendar_source WHERE name = ? OR app = ?"),
                                 arguments: [source.name, source.appID]) != nil
    guard !taken else {
      throw ChimeError(.calendarExists, "a calendar named \(source.name) is already registered; remove it first to register it again",
                       field: "name")
    }
    try t.db.cachedStatement(sql: "INSERT INTO calendar_source (name, path, app, added, planned_until) VALUES (?, ?, ?, ?, 0)")
      .execute(arguments: [source.name, source.path, source.appID, source.added.unixMillis])
    try SetCategories(app: source.appID, categories: categories).apply(in: t)
  }
}

/// Unregisters a calendar: its files' records go, and so do its pending alarms (one
/// `.pendingRemoved` event). Fails with NOT_FOUND `CALENDAR_NOT_FOUND`.
public struct RemoveCalendarSource: Mutation {
  public let name: String
  public let at: Instant

  public init(name: String, at: Instant) {
    self.name = name
    self.at = at
  }

  public var app: String { CalendarSource.appID(for: name) }

  public func apply(in t: WriteTransaction) throws -> Remove.Outcome {
    try t.db.cachedStatement(sql: "DELETE FROM calendar_source WHERE name = ?").execute(arguments: [name])
    guard t.db.changesCount > 0 else {
      throw ChimeError(.calendarNotFound, "no calendar named \(name) is registered", field: "name")
    }
    try t.db.cachedStatement(sql: "DELETE FROM calendar_file WHERE source = ?").execute(arguments: [name])
    try t.db.cachedStatement(sql: "DELETE FROM calendar_alarm WHERE source = ?").execute(arguments: [name])
    try t.db.cachedStatement(sql: "DELETE FROM calendar_write_back WHERE source = ?").execute(arguments: [name])
    return try Remove(from: .pending, app: app, identifiers: nil, at: at).apply(in: t)
  }
}

/// What came of writing dismissals and snoozes back into a calendar's files (RFC 9074): a file
/// whose write failed keeps why, listed with its errors until a later write into it succeeds;
/// one written has an earlier failure cleared. A file with no record yet gets one (no read
/// error, no alarms: its next scan fills them in). The queued dismissals and snoozes that run
/// took (`done`, written or not) leave the queue. Only that when the calendar is gone.
public struct RecordCalendarWriteBack: Mutation {
  public let source: String
  /// File name → why the write failed.
  public let failures: [String: String]
  public let written: [String]
  /// The queue entries (`QueuedCalendarWriteBack.seq`) the run took.
  public let done: [Int64]

  public init(source: String, failures: [String: String], written: [String], done: [Int64] = []) {
    self.source = source
    self.failures = failures
    self.written = written
    self.done = done
  }

  public var app: String { CalendarSource.appID(for: source) }

  public func apply(in t: WriteTransaction) throws {
    let dequeue = try t.db.cachedStatement(sql: "DELETE FROM calendar_write_back WHERE seq = ?")
    for seq in done { try dequeue.execute(arguments: [seq]) }
    guard try Row.fetchOne(t.db.cachedStatement(sql: "SELECT 1 FROM calendar_source WHERE name = ?"), arguments: [source]) != nil else { return }
    let record = try t.db.cachedStatement(sql: """
      INSERT INTO calendar_file (source, file, write_error) VALUES (?, ?, ?)
      ON CONFLICT (source, file) DO UPDATE SET write_error = excluded.write_error
      """)
    for (file, why) in failures.sorted(by: { $0.key < $1.key }) { try record.execute(arguments: [source, file, why]) }
    let clear = try t.db.cachedStatement(sql: "UPDATE calendar_file SET write_error = NULL WHERE source = ? AND file = ?")
    for file in written where failures[file] == nil { try clear.execute(arguments: [source, file]) }
  }
}
