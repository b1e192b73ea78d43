public import ChimeCore

/// A registered calendar as the store keeps it: what `list` shows, and the end of the window
/// its alarms were planned for.
public struct StoredCalendar: Hashable, Sendable {
  public var source: CalendarSource
  /// Alarms due before this were planned at the last whole scan; later ones are not yet.
  public var plannedUntil: Instant
}

extension ChimeDatabase {
  /// Most per-file errors listed for one calendar; past them, one more entry (with no file)
  /// says how many more files were skipped.
  public static let calendarErrorsListed = 100

  /// Every registered calendar, by name, with its item and alarm counts and file errors.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func calendars() throws(ChimeError) -> [StoredCalendar] {
    try read("calendar sources") { db in
      let rows = try Row.fetchAll(db.cachedStatement(sql: """
        SELECT s.name, s.path, s.added, s.last_scan, s.planned_until,
          (SELECT COUNT(*) FROM calendar_file f WHERE f.source = s.name AND f.error IS NULL),
          COALESCE((SELECT count FROM app_pending p WHERE p.app = s.app), 0),
          (SELECT COUNT(*) FROM calendar_file f WHERE f.source = s.name AND (f.error IS NOT NULL OR f.write_error IS NOT NULL))
        FROM calendar_source s ORDER BY s.name
        """))
      let errors = try db.cachedStatement(sql: """
        SELECT file, error, write_error FROM calendar_file WHERE source = ? AND (error IS NOT NULL OR write_error IS NOT NULL)
        ORDER BY file LIMIT ?
        """)
      return try rows.map { row in
        let name: String = try row.decode(atIndex: 0)
        let lastScan: Int64? = try row.decode(atIndex: 3)
        var source = CalendarSource(name: name, path: try row.decode(atIndex: 1), added: Instant(unixMillis: try row.decode(atIndex: 2)),
                                    lastScan: lastScan.map { Instant(unixMillis: $0) }, itemCount: try row.decode(atIndex: 5),
                                    alarmCount: try row.decode(atIndex: 6))
        source.errors = try Row.fetchAll(errors, arguments: [name, Self.calendarErrorsListed]).map { error in
          let read: String? = try error.decode(atIndex: 1)
          let written: String? = try error.decode(atIndex: 2)
          let messages = [read, written.map { "a dismissal or snooze was not written back: " + $0 }].compactMap { $0 }
          return CalendarSource.FileError(file: try error.decode(atIndex: 0), message: messages.joined(separator: "; "))
        }
        let errorCount: Int = try row.decode(atIndex: 7)
        if errorCount > source.errors.count {
          source.errors.append(CalendarSource.FileError(file: "", message: "\(errorCount - source.errors.count) more files were skipped"))
        }
        return StoredCalendar(source: source, plannedUntil: Instant(unixMillis: try row.decode(atIndex: 4)))
      }
    }
  }
}

/// A calendar alarm's request and which alarm of which file it is, as the last scan saw it.
public struct StoredCalendarAlarm: Hashable, Sendable {
  public var identifier: String
  public var file: String
  public var at: Instant
  public var origin: ApplyCalendarScan.Origin
}

extension ChimeDatabase {
  /// The rows of `source`'s alarms among `identifiers` (those it has).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func calendarAlarms(source: String, identifiers: [String]) throws(ChimeError) -> [StoredCalendarAlarm] {
    try read("calendar alarms") { db in
      let select = try db.cachedStatement(sql: """
        SELECT file, at, uid, recurrence, repeat_index FROM calendar_alarm WHERE source = ? AND identifier = ?
        """)
      return try identifiers.compactMap { identifier in
        try Row.fetchOne(select, arguments: [source, identifier]).map { row in
          StoredCalendarAlarm(identifier: identifier, file: try row.decode(atIndex: 0), at: Instant(unixMillis: try row.decode(atIndex: 1)),
                              origin: .init(uid: try row.decode(atIndex: 2), recurrence: try row.decode(atIndex: 3),
                                            repeatIndex: try row.decode(atIndex: 4)))
        }
      }
    }
  }

  /// The earliest instant before `now` of `source`'s alarms whose request is still pending,
  /// delivered or snoozed (nil: none): a scan that looks back to it sees whether they were
  /// acknowledged meanwhile.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func earliestHeldCalendarAlarm(source: String, before now: Instant) throws(ChimeError) -> Instant? {
    let app = CalendarSource.appID(for: source)
    return try read("calendar alarms") { db in
      let at: Int64? = try Row.fetchOne(db.cachedStatement(sql: """
        SELECT MIN(a.at) FROM calendar_alarm a WHERE a.source = ? AND a.at < ? AND (
          EXISTS (SELECT 1 FROM pending p WHERE p.app = ? AND p.identifier = a.identifier)
          OR EXISTS (SELECT 1 FROM delivered d WHERE d.app = ? AND d.identifier = a.identifier)
          OR EXISTS (SELECT 1 FROM snoozed z WHERE z.app = ? AND z.identifier = a.identifier))
        """), arguments: [source, now.unixMillis, app, app, app])?.decode(atIndex: 0)
      return at.map { Instant(unixMillis: $0) }
    }
  }
}
