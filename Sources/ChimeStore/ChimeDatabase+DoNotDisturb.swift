public import ChimeCore

extension ChimeDatabase {
  /// The user's Do Not Disturb setting (`.off` when it was never set).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT` for a row that does
  ///   not decode.
  public func doNotDisturb() throws(ChimeError) -> DoNotDisturb {
    try read("do not disturb") { db in try Self.doNotDisturb(db: db) }
  }

  static func doNotDisturb(db: Database) throws -> DoNotDisturb {
    let select = try db.cachedStatement(sql: """
      SELECT manual_on, manual_until, schedule_start, schedule_end, schedule_days, follow_desktop, summary
      FROM do_not_disturb WHERE id = 1
      """)
    guard let row = try Row.fetchOne(select) else { return .off }
    return try StoreError.decoding("do not disturb") {
      let on: Int = try row.decode(atIndex: 0)
      let until: Int64? = try row.decode(atIndex: 1)
      let start: Int? = try row.decode(atIndex: 2)
      let end: Int? = try row.decode(atIndex: 3)
      let days: Int? = try row.decode(atIndex: 4)
      let follow: Int = try row.decode(atIndex: 5)
      let summary: Int = try row.decode(atIndex: 6)
      var setting = DoNotDisturb(followDesktop: follow != 0, summary: summary != 0)
      if on != 0 { setting.manual = .init(until: until.map(Instant.init(unixMillis:))) }
      if let start, let end, let days, let mask = UInt8(exactly: days) {
        setting.schedule = DoNotDisturbSchedule(startMinute: start, endMinute: end, days: DoNotDisturbDays(rawValue: mask))
      }
      return setting
    }
  }

  /// The notifications delivered quietly and not yet counted in a summary
  /// (`MarkDoNotDisturbSummarized` clears them), still in the delivered lists, counted by app
  /// under the name the desktop shows (its registered display name, else its id), with the
  /// rows to mark once the summary is decided. A quiet delivery the user removed before Do Not
  /// Disturb ended is not counted. Whatever the clock did meanwhile: no instant is compared.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func quietDeliveriesNotSummarized() throws(ChimeError) -> QuietDeliveries {
    try read("quiet deliveries") { db in try QuietDeliveries.count(in: db) }
  }
}

extension QuietDeliveries {
  /// The count `quietDeliveriesNotSummarized` describes, on a connection of either kind.
  static func count(in db: Database) throws -> QuietDeliveries {
    let rows = try Row.fetchCursor(db.cachedStatement(sql: """
      SELECT d.rowid, COALESCE(NULLIF(a.display_name, ''), d.app)
      FROM delivered d LEFT JOIN app a ON a.id = d.app
      WHERE d.quiet_unsummarized = 1
      """))
    var counts: [String: Int] = [:]
    var marks: [Int64] = []
    while let row = try rows.next() {
      marks.append(try row.decode(atIndex: 0))
      let name: String = try row.decode(atIndex: 1)
      counts[name, default: 0] += 1
    }
    return QuietDeliveries(summary: DoNotDisturbSummary(counts.map { DoNotDisturbSummary.AppCount(name: $0.key, count: $0.value) }),
                           rows: marks)
  }
}

/// What a Do Not Disturb summary counts, and the delivered rows it counted.
public struct QuietDeliveries: Sendable {
  public var summary: DoNotDisturbSummary
  /// The rows to mark summarized (`MarkDoNotDisturbSummarized`).
  public var rows: [Int64]
}

extension WriteTransaction {
  /// Replaces the Do Not Disturb setting (the summary mark stays).
  func setDoNotDisturb(_ setting: DoNotDisturb, at: Instant) throws {
    let schedule = setting.schedule
    try db.cachedStatement(sql: """
      INSERT INTO do_not_disturb (id, manual_on, manual_until, schedule_start, schedule_end, schedule_days, follow_desktop, summary, changed_at)
      VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET manual_on = excluded.manual_on, manual_until = excluded.manual_until,
        schedule_start = excluded.schedule_start, schedule_end = excluded.schedule_end,
        schedule_days = excluded.schedule_days, follow_desktop = excluded.follow_desktop, summary = excluded.summary,
        changed_at = excluded.changed_at
      """).execute(arguments: [setting.manual == nil ? 0 : 1, setting.manual?.until?.unixMillis, schedule?.startMinute,
                               schedule?.endMinute, schedule.map { Int($0.days.rawValue) }, setting.followDesktop ? 1 : 0,
                               setting.summary ? 1 : 0, at.unixMillis])
  }

  /// The quiet deliveries `rows` (from `quietDeliveriesNotSummarized`) are summarized: the next
  /// summary leaves them out. A row removed or delivered again (not quietly) meanwhile is
  /// left as it is.
  func markDoNotDisturbSummarized(rows: [Int64]) throws {
    let mark = try db.cachedStatement(sql: "UPDATE delivered SET quiet_unsummarized = 0 WHERE rowid = ? AND quiet_unsummarized = 1")
    for rowid in rows { try mark.execute(arguments: [rowid]) }
  }
}
