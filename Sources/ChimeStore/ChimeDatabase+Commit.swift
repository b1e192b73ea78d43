public import ChimeCore
import Foundation
import GRDB
import Logging

extension ChimeDatabase {
  /// Applies `batch` in one transaction (group commit) and returns one result per mutation,
  /// in order. Returns only after the transaction is durable.
  ///
  /// Each mutation runs in its own savepoint: one that fails (INVALID_ARGUMENT for a bad app
  /// or identifier, INTERNAL for a record that cannot be encoded or read) is rolled back and
  /// answered alone, the others still commit. When the transaction itself fails, every result
  /// is the same failure: RESOURCE_EXHAUSTED `STORE_FULL` when the disk is full, UNAVAILABLE
  /// `STORE_WRITE_FAILED` for I/O errors and a busy or locked database, UNAVAILABLE
  /// `STORE_CLOSED` after `close()`.
  ///
  /// Retention runs in the same transaction: past `eventRetention` events the oldest go.
  public func commit(_ batch: [Mutation]) -> [Result<MutationOutcome, ChimeError>] {
    guard !batch.isEmpty else { return [] }
    let results = gate.pass { () -> [Result<MutationOutcome, ChimeError>] in commitNow(batch) }
    return results ?? Array(repeating: .failure(StoreError.closed), count: batch.count)
  }

  private func commitNow(_ batch: [Mutation]) -> [Result<MutationOutcome, ChimeError>] {
    do {
      return try pool.write { db in
        var results: [Result<MutationOutcome, ChimeError>] = []
        results.reserveCapacity(batch.count)
        var appended = false
        for mutation in batch {
          let result = try applyInSavepoint(mutation, db: db)
          if case .success(let outcome) = result, !outcome.events.isEmpty { appended = true }
          results.append(result)
        }
        if appended {
          try EventLog.prune(retention: eventRetention, db: db)
        }
        return results
      }
    } catch {
      let failure = StoreError.map(error, .write, logger: logger, context: "commit of \(batch.count) mutations")
      let status = failure.code == .resourceExhausted || failure.reason == StoreError.closed.reason
        ? failure : StoreError.unavailable(.write)
      return Array(repeating: .failure(status), count: batch.count)
    }
  }

  /// Runs one mutation in a savepoint. Errors that leave the transaction usable fail this
  /// mutation only; the rest (I/O, full, busy, aborted) are rethrown to fail the batch.
  private func applyInSavepoint(_ mutation: Mutation, db: Database) throws -> Result<MutationOutcome, ChimeError> {
    var outcome = MutationOutcome()
    do {
      try db.inSavepoint {
        outcome = try apply(mutation, db: db)
        return .commit
      }
      return .success(outcome)
    } catch let error as ChimeError {
      return .failure(error)
    } catch let error as DatabaseError where !StoreError.isStatementLocal(error) {
      throw error
    } catch {
      return .failure(StoreError.map(error, .write, logger: logger, context: "mutation for app \(mutation.app)"))
    }
  }

  private func apply(_ mutation: Mutation, db: Database) throws -> MutationOutcome {
    switch mutation {
    case .add(let app, let pending, let at):
      return try add(app: app, pending: pending, at: at, db: db)
    case .deliverNow(let app, let delivered, let at):
      return try deliverNow(app: app, delivered: delivered, at: at, db: db)
    case .removePending(let app, let identifiers, let at):
      return try remove(from: .pending, app: app, identifiers: identifiers, at: at, db: db)
    case .removeDelivered(let app, let identifiers, let at):
      return try remove(from: .delivered, app: app, identifiers: identifiers, at: at, db: db)
    case .replanFloating(let zone, let now):
      return try replanFloating(zone: zone, now: now, db: db)
    case .fire(let key, let now, let grace, let zone, let soundCheck):
      return try fire(key, now: now, missedGraceMillis: grace, zone: zone, soundCheck: soundCheck, db: db)
    case .registerApp(let layout, let at):
      return try registerApp(layout, at: at, db: db)
    }
  }

  // MARK: mutations

  private func add(app: String, pending: PendingRequest, at: Instant, db: Database) throws -> MutationOutcome {
    let identifier = pending.request.identifier
    try Self.check(app: app, identifier: identifier)
    let replaced = try exists(.pending, app: app, identifier: identifier, db: db)
    let body = codec.encode(pending)
    try db.cachedStatement(sql: """
      INSERT INTO pending (app, identifier, next_fire, added, fire_count, body, floating) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET next_fire = excluded.next_fire, added = excluded.added,
        fire_count = excluded.fire_count, body = excluded.body, floating = excluded.floating
      """).execute(arguments: [
        app, identifier, pending.nextFire.unixMillis, pending.added.unixMillis,
        Int64(clamping: pending.fireCount), body, Self.isFloating(pending.request.trigger) ? 1 : 0,
      ])
    try releaseAttachments(.pending, app: app, identifier: identifier, db: db)
    let discarded = try collectAttachments(app: app, identifier: identifier, db: db)
    try holdAttachments(pending.request, as: .pending, app: app, db: db)
    let event = Event(at: at, kind: replaced ? .pendingReplaced : .pendingAdded, identifiers: [identifier], pending: pending)
    let stored = try EventLog.append(event, app: app, db: db, codec: codec)
    var outcome = MutationOutcome(events: [stored], replaced: replaced, pending: pending)
    outcome.discardedFiles = discarded
    return outcome
  }

  private func deliverNow(app: String, delivered: DeliveredNotification, at: Instant, db: Database) throws -> MutationOutcome {
    let identifier = delivered.request.identifier
    try Self.check(app: app, identifier: identifier)
    var outcome = MutationOutcome()
    if try delete(.pending, app: app, identifier: identifier, db: db) {
      outcome.replaced = true
      let removed = Event(at: at, kind: .pendingRemoved, identifiers: [identifier], note: "replaced by a request delivered at once")
      outcome.events.append(try EventLog.append(removed, app: app, db: db, codec: codec))
    }
    try storeDelivered(delivered, app: app, db: db)
    try releaseAttachments(.pending, app: app, identifier: identifier, db: db)
    try releaseAttachments(.delivered, app: app, identifier: identifier, db: db)
    outcome.discardedFiles = try collectAttachments(app: app, identifier: identifier, db: db)
    try holdAttachments(delivered.request, as: .delivered, app: app, db: db)
    outcome.delivered = delivered
    let event = Event(at: at, kind: .delivered, identifiers: [identifier], delivered: delivered)
    outcome.events.append(try EventLog.append(event, app: app, db: db, codec: codec))
    return outcome
  }

  private func remove(from table: Table, app: String, identifiers: [String]?, at: Instant, db: Database) throws -> MutationOutcome {
    var removed: [String]
    if let identifiers {
      removed = []
      // No Set: Swift equates canonically equivalent strings that SQLite stores apart. A
      // repeated identifier deletes nothing the second time.
      for identifier in identifiers where try delete(table, app: app, identifier: identifier, db: db) {
        removed.append(identifier)
      }
    } else {
      removed = try String.fetchAll(db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE app = ? RETURNING identifier"),
                                    arguments: [app])
    }
    removed.sort()
    var outcome = MutationOutcome(removed: removed)
    let holder: Holder = table == .pending ? .pending : .delivered
    if identifiers == nil {
      try releaseAttachments(holder, app: app, identifier: nil, db: db)
      outcome.discardedFiles = try collectAttachments(app: app, identifier: nil, db: db)
    } else {
      for identifier in removed {
        try releaseAttachments(holder, app: app, identifier: identifier, db: db)
        outcome.discardedFiles += try collectAttachments(app: app, identifier: identifier, db: db)
      }
    }
    if !removed.isEmpty {
      let event = Event(at: at, kind: table == .pending ? .pendingRemoved : .deliveredRemoved, identifiers: removed)
      outcome.events.append(try EventLog.append(event, app: app, db: db, codec: codec))
    }
    return outcome
  }

  /// A calendar trigger with no zone of its own follows the daemon's zone.
  static func isFloating(_ trigger: Trigger?) -> Bool {
    guard case .calendar(let c)? = trigger else { return false }
    return (c.components.timeZone ?? "").isEmpty
  }

  private func replanFloating(zone: TimeZone, now: Instant, db: Database) throws -> MutationOutcome {
    var outcome = MutationOutcome()
    let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT app, identifier, next_fire, fire_count, body FROM pending WHERE floating = 1"))
    for row in rows {
      let app: String = row[0]
      let identifier: String = row[1]
      var pending = try codec.decode(PendingRequest.self, from: row[4])
      pending.fireCount = UInt64(clamping: row[3] as Int64)
      guard case .calendar(let trigger)? = pending.request.trigger else { continue }
      let note = "re-planned: the time zone is now \(zone.identifier)"
      if let next = CalendarEngine.nextFire(after: now, trigger: trigger, zone: zone)?.instant {
        guard next.unixMillis != row[2] as Int64 else { continue }
        try db.cachedStatement(sql: "UPDATE pending SET next_fire = ? WHERE app = ? AND identifier = ?")
          .execute(arguments: [next.unixMillis, app, identifier])
        pending.nextFire = next
        outcome.rescheduled.append(ScheduleKey(due: next, app: app, identifier: identifier))
        let event = Event(at: now, kind: .pendingReplaced, identifiers: [identifier], pending: pending, note: note)
        outcome.appEvents[app, default: []].append(try EventLog.append(event, app: app, db: db, codec: codec))
      } else {
        _ = try delete(.pending, app: app, identifier: identifier, db: db)
        try releaseAttachments(.pending, app: app, identifier: identifier, db: db)
        outcome.discardedFiles += try collectAttachments(app: app, identifier: identifier, db: db)
        let event = Event(at: now, kind: .pendingRemoved, identifiers: [identifier], note: note + "; the trigger matches no later date")
        outcome.appEvents[app, default: []].append(try EventLog.append(event, app: app, db: db, codec: codec))
      }
    }
    return outcome
  }

  private func fire(_ key: ScheduleKey, now: Instant, missedGraceMillis: Int64, zone: TimeZone, soundCheck: SoundRecheck?,
                    db: Database) throws -> MutationOutcome {
    let select = try db.cachedStatement(sql: "SELECT next_fire, fire_count, body FROM pending WHERE app = ? AND identifier = ?")
    guard let row = try Row.fetchOne(select, arguments: [key.app, key.identifier]),
          row[0] as Int64 == key.due.unixMillis
    else {
      return MutationOutcome(stale: true)
    }
    var pending: PendingRequest
    do {
      pending = try codec.decode(PendingRequest.self, from: row[2])
    } catch {
      logger.error("unreadable pending request", metadata: ["key": "\(key)", "cause": "\(error)"])
      throw StoreError.corrupt("pending request")
    }
    pending.nextFire = key.due
    pending.fireCount = UInt64(clamping: row[1] as Int64)
    let request = pending.request

    let lateness = now.millis(since: key.due)
    let missed = lateness > missedGraceMillis
    var outcome = MutationOutcome()
    if missed, let reason = Self.skipReason(request.missedFire, latenessMillis: lateness) {
      let event = Event(at: now, kind: .missedSkipped, identifiers: [key.identifier], note: reason)
      outcome.events.append(try EventLog.append(event, app: key.app, db: db, codec: codec))
    } else {
      var sound = pending.sound
      var note = ""
      if let soundCheck, let resolved = sound, resolved.plays == .named {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, container, groups, bundle FROM app WHERE id = ?"),
                                   arguments: [key.app])
        // A registration row that does not decode must not stop the delivery: the check then
        // asks the default layout, which only ever allows the daemon's own apps directory.
        let registered: AppLayout?
        do {
          registered = try row.map(Self.layout(from:))
        } catch {
          logger.error("unreadable app registration; sound checked against the default layout",
                       metadata: ["app": "\(key.app)", "cause": "\(error)"])
          registered = nil
        }
        let checked = soundCheck(resolved, key.app, registered)
        sound = checked
        if checked.plays != .named {
          note = "sound: \(checked.reason): \(checked.message)"
        }
      }
      let delivered = DeliveredNotification(request: request, delivered: now, due: key.due, missed: missed, sound: sound)
      try storeDelivered(delivered, app: key.app, db: db)
      try deliverAttachments(app: key.app, identifier: key.identifier, db: db)
      outcome.delivered = delivered
      let event = Event(at: now, kind: .delivered, identifiers: [key.identifier], delivered: delivered, note: note)
      outcome.events.append(try EventLog.append(event, app: key.app, db: db, codec: codec))
    }

    if let next = TriggerPlanner.nextFire(of: request.trigger, due: key.due, now: now, zone: zone) {
      try db.cachedStatement(sql: """
        UPDATE pending SET next_fire = ?, fire_count = fire_count + 1 WHERE app = ? AND identifier = ?
        """).execute(arguments: [next.unixMillis, key.app, key.identifier])
      pending.nextFire = next
      pending.fireCount &+= 1
      outcome.pending = pending
      outcome.next = ScheduleKey(due: next, app: key.app, identifier: key.identifier)
    } else {
      _ = try delete(.pending, app: key.app, identifier: key.identifier, db: db)
      try releaseAttachments(.pending, app: key.app, identifier: key.identifier, db: db)
    }
    outcome.discardedFiles = try collectAttachments(app: key.app, identifier: key.identifier, db: db)
    return outcome
  }

  /// Why a missed fire is not delivered, or nil when it is.
  static func skipReason(_ policy: MissedFirePolicy, latenessMillis: Int64) -> String? {
    let late = Double(latenessMillis) / 1000
    switch policy.action {
    case .deliver:
      return nil
    case .skip:
      return "missed by \(late) s; the request's missed-fire policy is skip"
    case .deliverIfLateByLessThan:
      guard Double(latenessMillis) >= policy.maxLatenessSeconds * 1000 else { return nil }
      return "missed by \(late) s; the request's missed-fire policy delivers only if late by less than \(policy.maxLatenessSeconds) s"
    }
  }

  // MARK: rows

  enum Table: String {
    case pending, delivered
  }

  private static func check(app: String, identifier: String) throws(ChimeError) {
    guard !app.isEmpty else { throw .invalidArgument("INVALID_APP_ID", "app id is empty", field: "app_id") }
    guard !identifier.isEmpty else {
      throw .invalidArgument("INVALID_IDENTIFIER", "identifier is empty", field: "request.identifier")
    }
  }

  private func exists(_ table: Table, app: String, identifier: String, db: Database) throws -> Bool {
    let select = try db.cachedStatement(sql: "SELECT 1 FROM \(table.rawValue) WHERE app = ? AND identifier = ?")
    return try Row.fetchOne(select, arguments: [app, identifier]) != nil
  }

  /// Deletes one row; true if it existed.
  private func delete(_ table: Table, app: String, identifier: String, db: Database) throws -> Bool {
    try db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE app = ? AND identifier = ?")
      .execute(arguments: [app, identifier])
    return db.changesCount > 0
  }

  /// Upserts `delivered`.
  private func storeDelivered(_ delivered: DeliveredNotification, app: String, db: Database) throws {
    let body = codec.encode(delivered)
    try db.cachedStatement(sql: """
      INSERT INTO delivered (app, identifier, delivered_at, due, missed, body) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (app, identifier) DO UPDATE SET delivered_at = excluded.delivered_at, due = excluded.due,
        missed = excluded.missed, body = excluded.body
      """).execute(arguments: [
        app, delivered.request.identifier, delivered.delivered.unixMillis, delivered.due.unixMillis,
        delivered.missed, body,
      ])
  }
}
