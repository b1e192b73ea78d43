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

  /// The notifications delivered quietly after the last summary (`MarkDoNotDisturbSummarized`)
  /// and at or before `through`, still in the delivered lists, counted by app under the name
  /// the desktop shows (its registered display name, else its id). A quiet delivery the user
  /// removed before Do Not Disturb ended is not counted.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func quietDeliveriesSinceSummary(through: Instant) throws(ChimeError) -> DoNotDisturbSummary {
    let codec = self.codec
    return try read("quiet deliveries") { db in
      let since = try Int64.fetchOne(db, sql: "SELECT summarized_through FROM do_not_disturb WHERE id = 1") ?? 0
      // Only bodies holding `delivered_quietly = true` (field 11, varint: the bytes 58 01) are
      // decoded: at start every delivered row since the last summary is looked at, and most
      // are not quiet. A body with those bytes elsewhere is decoded and left out.
      let rows = try Row.fetchCursor(db.cachedStatement(sql: """
        SELECT d.app, d.body, COALESCE(NULLIF(a.display_name, ''), d.app)
        FROM delivered d LEFT JOIN app a ON a.id = d.app
        WHERE d.delivered_at > ? AND d.delivered_at <= ? AND instr(d.body, X'5801') > 0
        """), arguments: [since, through.unixMillis])
      var counts: [String: Int] = [:]
      while let row = try rows.next() {
        let body = try StoreError.decoding("delivered notification") { try row.decode([UInt8].self, atIndex: 1) }
        let delivered = try StoreError.decoding("delivered notification") { try codec.decode(DeliveredNotification.self, from: body) }
        guard delivered.quiet else { continue }
        let name: String = try row.decode(atIndex: 2)
        counts[name, default: 0] += 1
      }
      return DoNotDisturbSummary(counts.map { DoNotDisturbSummary.AppCount(name: $0.key, count: $0.value) })
    }
  }
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

  /// Quiet deliveries up to `through` are summarized: the next summary counts those after it.
  func markDoNotDisturbSummarized(through: Instant) throws {
    try db.cachedStatement(sql: """
      INSERT INTO do_not_disturb (id, manual_on, summarized_through, changed_at) VALUES (1, 0, ?, ?)
      ON CONFLICT (id) DO UPDATE SET summarized_through = MAX(summarized_through, excluded.summarized_through)
      """).execute(arguments: [through.unixMillis, through.unixMillis])
  }
}
