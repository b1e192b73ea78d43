public import ChimeCore
import GRDB

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
      SELECT manual_on, manual_until, schedule_start, schedule_end, schedule_days FROM do_not_disturb WHERE id = 1
      """)
    guard let row = try Row.fetchOne(select) else { return .off }
    return try StoreError.decoding("do not disturb") {
      let on: Int = try row.decode(atIndex: 0)
      let until: Int64? = try row.decode(atIndex: 1)
      let start: Int? = try row.decode(atIndex: 2)
      let end: Int? = try row.decode(atIndex: 3)
      let days: Int? = try row.decode(atIndex: 4)
      var setting = DoNotDisturb()
      if on != 0 { setting.manual = .init(until: until.map(Instant.init(unixMillis:))) }
      if let start, let end, let days, let mask = UInt8(exactly: days) {
        setting.schedule = DoNotDisturbSchedule(startMinute: start, endMinute: end, days: DoNotDisturbDays(rawValue: mask))
      }
      return setting
    }
  }
}

extension WriteTransaction {
  /// Replaces the Do Not Disturb setting.
  func setDoNotDisturb(_ setting: DoNotDisturb, at: Instant) throws {
    let schedule = setting.schedule
    try db.cachedStatement(sql: """
      INSERT INTO do_not_disturb (id, manual_on, manual_until, schedule_start, schedule_end, schedule_days, changed_at)
      VALUES (1, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET manual_on = excluded.manual_on, manual_until = excluded.manual_until,
        schedule_start = excluded.schedule_start, schedule_end = excluded.schedule_end,
        schedule_days = excluded.schedule_days, changed_at = excluded.changed_at
      """).execute(arguments: [setting.manual == nil ? 0 : 1, setting.manual?.until?.unixMillis, schedule?.startMinute,
                               schedule?.endMinute, schedule.map { Int($0.days.rawValue) }, at.unixMillis])
  }
}
