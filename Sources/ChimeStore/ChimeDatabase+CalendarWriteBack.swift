public import ChimeCore

/// A dismissal or snooze of a calendar alarm waiting to be written into its item.
public struct QueuedCalendarWriteBack: Hashable, Sendable {
  /// Its place in the queue, which `RecordCalendarWriteBack.done` names to take it out.
  public var seq: Int64
  public var identifier: String
  /// When the snooze ends; nil for a dismissal.
  public var snoozeUntil: Instant?
}

extension ChimeDatabase {
  /// The oldest `limit` dismissals and snoozes of `source` waiting to be written back, in the
  /// order they were committed.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func queuedCalendarWriteBacks(source: String, limit: Int) throws(ChimeError) -> [QueuedCalendarWriteBack] {
    try read("calendar write-back queue") { db in
      try Row.fetchAll(db.cachedStatement(sql: """
        SELECT seq, identifier, snooze_until FROM calendar_write_back WHERE source = ? ORDER BY seq LIMIT ?
        """), arguments: [source, limit]).map { row in
        let until: Int64? = try row.decode(atIndex: 2)
        return QueuedCalendarWriteBack(seq: try row.decode(atIndex: 0), identifier: try row.decode(atIndex: 1),
                                       snoozeUntil: until.map { Instant(unixMillis: $0) })
      }
    }
  }
}

extension WriteTransaction {
  /// Queues what the user did with a calendar's notifications (`event`: removed or snoozed) to
  /// be written into the items, in this transaction: committed together or not at all. A
  /// snooze with no end known, or a calendar no longer registered, queues nothing.
  func queueCalendarWriteBack(_ event: Event, app: String) throws {
    let source = String(app.utf8.dropFirst(CalendarSource.appIDPrefix.utf8.count)) ?? ""
    let until: Int64?
    if event.kind == .snoozed {
      guard let end = event.pending?.nextFire else { return }
      until = end.unixMillis
    } else {
      until = nil
    }
    let insert = try db.cachedStatement(sql: """
      INSERT INTO calendar_write_back (source, identifier, snooze_until)
      SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM calendar_source WHERE name = ?)
      """)
    for identifier in event.identifiers {
      try insert.execute(arguments: [source, identifier, until, source])
    }
  }
}
