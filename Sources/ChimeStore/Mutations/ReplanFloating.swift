public import ChimeCore

/// Carries out re-plans of floating calendar triggers after the daemon's zone changed: each
/// change moves a row's next fire (event `.pendingReplaced`) or removes it (event
/// `.pendingRemoved`), applied only when the row is still the one planned from.
public struct ReplanFloating: Mutation {
  public struct Change: Sendable {
    public var row: PendingRow
    /// `.move` or `.remove`; `.unchanged` rows need no change.
    public var decision: FloatingReplan

    public init(row: PendingRow, decision: FloatingReplan) {
      self.row = row
      self.decision = decision
    }
  }

  public var zone: Zone
  public var changes: [Change]
  public var at: Instant
  public var app: String { "*" }

  public init(zone: Zone, changes: [Change], at: Instant) {
    self.zone = zone
    self.changes = changes
    self.at = at
  }

  public struct Outcome: Sendable {
    /// The new schedule keys of moved rows.
    public var rescheduled: [ScheduleKey] = []
    /// The events appended, by app.
    public var appEvents: [String: [Event]] = [:]
    public var discardedFiles: [String] = []
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    var outcome = Outcome()
    for change in changes {
      let key = change.row.key
      guard try t.isCurrent(key, change.row.revision) else { continue }
      let event: Event
      switch change.decision {
      case .unchanged:
        continue
      case .move(let next):
        try t.db.cachedStatement(sql: "UPDATE pending SET next_fire = ? WHERE app = ? AND identifier = ?")
          .execute(arguments: [next.unixMillis, key.app, key.identifier])
        var pending = change.row.pending
        pending.nextFire = next
        outcome.rescheduled.append(ScheduleKey(due: next, app: key.app, identifier: key.identifier))
        event = Event(at: at, kind: .pendingReplaced, identifiers: [key.identifier], pending: pending,
                      note: FloatingReplan.note(zone: zone, removed: false))
      case .remove:
        _ = try t.delete(.pending, app: key.app, identifier: key.identifier)
        outcome.discardedFiles += try t.endPending(app: key.app, identifier: key.identifier)
        event = Event(at: at, kind: .pendingRemoved, identifiers: [key.identifier], note: FloatingReplan.note(zone: zone, removed: true))
      }
      outcome.appEvents[key.app, default: []].append(try t.append(event, app: key.app))
    }
    return outcome
  }
}
