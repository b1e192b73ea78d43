public import ChimeCore
import ChimeRecords
import Logging

/// Reads that feed the scheduler's and the re-planner's decisions, in one snapshot each.
extension ChimeDatabase {
  /// The stored state of each of `keys` (in order): current when its row still has that due
  /// instant.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func dueRows(_ keys: [ScheduleKey]) throws(ChimeError) -> [DueRow] {
    guard !keys.isEmpty else { return [] }
    let codec = self.codec, logger = self.logger
    return try read("\(keys.count) due rows") { db in
      let select = try db.cachedStatement(sql: "SELECT next_fire, fire_count, body FROM pending WHERE app = ? AND identifier = ?")
      let selectSnoozed = try db.cachedStatement(sql: "SELECT until, snooze_count, body, snoozed_at FROM snoozed WHERE app = ? AND identifier = ?")
      return try keys.map { key -> DueRow in
        if key.snoozed {
          guard let row = try Row.fetchOne(selectSnoozed, arguments: [key.app, key.identifier]) else { return .stale }
          do {
            guard try row.decode(Int64.self, atIndex: 0) == key.due.unixMillis else { return .stale }
            let (entry, delivered) = try Self.snoozed(from: row, codec: codec)
            let revision = PendingRevision(fireCount: try row.decode(atIndex: 1), body: try row.decode(atIndex: 2))
            return .current(PendingRow(key: key, pending: entry, revision: revision, snoozed: delivered))
          } catch {
            logger.error("unreadable snoozed notification", metadata: ["key": "\(key)", "cause": "\(error)"])
            return .unreadable(StoreError.corrupt("snoozed notification"))
          }
        }
        guard let row = try Row.fetchOne(select, arguments: [key.app, key.identifier]) else { return .stale }
        do {
          guard try row.decode(Int64.self, atIndex: 0) == key.due.unixMillis else { return .stale }
          return .current(try Self.pendingRow(row, key: key, codec: codec))
        } catch {
          logger.error("unreadable pending request", metadata: ["key": "\(key)", "cause": "\(error)"])
          return .unreadable(StoreError.corrupt("pending request"))
        }
      }
    }
  }

  /// Pending rows with a floating calendar trigger, ordered by (app, identifier), after
  /// `after` (nil: from the start), at most `limit`.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func floatingRows(after: (app: String, identifier: String)?, limit: Int) throws(ChimeError) -> [PendingRow] {
    let codec = self.codec
    return try read("floating rows") { db in
      let rows: [Row]
      let columns = "SELECT next_fire, fire_count, body, app, identifier FROM pending"
      if let after {
        rows = try Row.fetchAll(db.cachedStatement(sql: """
          \(columns) WHERE floating = 1 AND (app, identifier) > (?, ?) ORDER BY app, identifier LIMIT ?
          """), arguments: [after.app, after.identifier, limit])
      } else {
        rows = try Row.fetchAll(db.cachedStatement(sql: "\(columns) WHERE floating = 1 ORDER BY app, identifier LIMIT ?"),
                                arguments: [limit])
      }
      return try rows.map { row in
        try StoreError.decoding("pending request") {
          let key = ScheduleKey(due: Instant(unixMillis: try row.decode(atIndex: 0)), app: try row.decode(atIndex: 3),
                                identifier: try row.decode(atIndex: 4))
          return try Self.pendingRow(row, key: key, codec: codec)
        }
      }
    }
  }

  /// Columns next_fire, fire_count, body.
  private static func pendingRow(_ row: Row, key: ScheduleKey, codec: RecordCodec) throws -> PendingRow {
    let body: [UInt8] = try row.decode(atIndex: 2)
    let fireCount: Int64 = try row.decode(atIndex: 1)
    var pending = try codec.decode(PendingRequest.self, from: body)
    pending.nextFire = key.due
    pending.fireCount = UInt64(clamping: fireCount)
    return PendingRow(key: key, pending: pending, revision: PendingRevision(fireCount: fireCount, body: body))
  }
}
