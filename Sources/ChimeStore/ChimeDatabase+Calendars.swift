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
          (SELECT COUNT(*) FROM calendar_file f WHERE f.source = s.name AND f.error IS NOT NULL)
        FROM calendar_source s ORDER BY s.name
        """))
      let errors = try db.cachedStatement(sql: """
        SELECT file, error FROM calendar_file WHERE source = ? AND error IS NOT NULL ORDER BY file LIMIT ?
        """)
      return try rows.map { row in
        let name: String = try row.decode(atIndex: 0)
        let lastScan: Int64? = try row.decode(atIndex: 3)
        var source = CalendarSource(name: name, path: try row.decode(atIndex: 1), added: Instant(unixMillis: try row.decode(atIndex: 2)),
                                    lastScan: lastScan.map { Instant(unixMillis: $0) }, itemCount: try row.decode(atIndex: 5),
                                    alarmCount: try row.decode(atIndex: 6))
        source.errors = try Row.fetchAll(errors, arguments: [name, Self.calendarErrorsListed]).map { error in
          CalendarSource.FileError(file: try error.decode(atIndex: 0), message: try error.decode(atIndex: 1))
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
