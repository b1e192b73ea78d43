public import ChimeCore

/// Removes pending requests or delivered notifications by identifier (nil: all of the app's).
/// Either way a snoozed notification of a removed identifier is cancelled too (it is listed
/// with the pending requests and is a delivered notification waiting to come back).
/// `removed` lists those that existed (pending or delivered as asked, or snoozed), sorted; one
/// `.pendingRemoved` or `.deliveredRemoved` event lists them (none if empty).
public struct Remove: Mutation {
  public enum From: Sendable {
    case pending, delivered
  }

  public var from: From
  public var app: String
  public var identifiers: [String]?
  public var at: Instant

  public init(from: From, app: String, identifiers: [String]?, at: Instant) {
    self.from = from
    self.app = app
    self.identifiers = identifiers
    self.at = at
  }

  public struct Outcome: MutationOutcome {
    public var events: [Event] = []
    /// The identifiers that existed and were removed, sorted.
    public var removed: [String]
    public var discardedFiles: [String] = []
  }

  public func apply(in t: WriteTransaction) throws -> Outcome {
    let table: WriteTransaction.Table = from == .pending ? .pending : .delivered
    var removed: [String]
    if let identifiers {
      removed = []
      // No Set: Swift equates canonically equivalent strings that SQLite stores apart. A
      // repeated identifier deletes nothing the second time.
      for identifier in identifiers where try t.delete(table, app: app, identifier: identifier) {
        removed.append(identifier)
      }
    } else {
      removed = try String.fetchAll(t.db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE app = ? RETURNING identifier"),
                                    arguments: [app])
      if table == .pending { t.countPending(app, -Int64(removed.count)) }
    }
    let cancelled = try t.cancelSnoozes(app: app, identifiers: identifiers)
    for identifier in cancelled where !removed.contains(where: { $0.utf8.elementsEqual(identifier.utf8) }) {
      removed.append(identifier)
    }
    removed.sort()
    var outcome = Outcome(removed: removed)
    let holder: ChimeDatabase.Holder = from == .pending ? .pending : .delivered
    if identifiers == nil {
      try t.store.releaseAttachments(holder, app: app, identifier: nil, db: t.db)
      outcome.discardedFiles = try t.store.collectAttachments(app: app, identifier: nil, db: t.db)
    } else {
      for identifier in removed {
        try t.store.releaseAttachments(holder, app: app, identifier: identifier, db: t.db)
        outcome.discardedFiles += try t.store.collectAttachments(app: app, identifier: identifier, db: t.db)
      }
    }
    if !removed.isEmpty {
      let event = Event(at: at, kind: from == .pending ? .pendingRemoved : .deliveredRemoved, identifiers: removed)
      outcome.events.append(try t.append(event, app: app))
    }
    return outcome
  }
}

extension Mutation where Self == Remove {
  public static func removePending(app: String, identifiers: [String]?, at: Instant) -> Remove {
    Remove(from: .pending, app: app, identifiers: identifiers, at: at)
  }

  public static func removeDelivered(app: String, identifiers: [String]?, at: Instant) -> Remove {
    Remove(from: .delivered, app: app, identifiers: identifiers, at: at)
  }
}
