public import ChimeCore

/// Replaces the user's Do Not Disturb setting (`SetDoNotDisturb`); answers the setting stored.
public struct SetDoNotDisturb: Mutation {
  public var setting: DoNotDisturb
  public var at: Instant
  /// The user's setting belongs to no app.
  public var app: String { "*" }

  public init(setting: DoNotDisturb, at: Instant) {
    self.setting = setting
    self.at = at
  }

  /// - Throws: `INVALID_DND_SCHEDULE` or `INVALID_DND_DAYS` for a schedule that does not
  ///   validate (the store keeps only valid ones).
  public func apply(in t: WriteTransaction) throws -> DoNotDisturb {
    try setting.schedule?.validate()
    try t.setDoNotDisturb(setting, at: at)
    return setting
  }
}

/// Marks the quiet deliveries a summary counted as summarized (Do Not Disturb ended and its
/// summary was decided): the next summary counts only others.
public struct MarkDoNotDisturbSummarized: Mutation {
  public var rows: [Int64]
  public var app: String { "*" }

  public init(rows: [Int64]) {
    self.rows = rows
  }

  public func apply(in t: WriteTransaction) throws {
    try t.markDoNotDisturbSummarized(rows: rows)
  }
}

/// Do Not Disturb ended: the quiet deliveries not yet summarized are counted and marked
/// summarized in one transaction. Submitted when it ends, it is ordered before any delivery
/// committed after (the writer commits in order), so a quiet delivery of a later window (the
/// user turned it on again at once) is left for that window's summary.
public struct SummarizeQuietDeliveries: Mutation {
  public var app: String { "*" }

  public init() {}

  public func apply(in t: WriteTransaction) throws -> QuietDeliveries {
    let quiet = try QuietDeliveries.count(in: t.db)
    try t.markDoNotDisturbSummarized(rows: quiet.rows)
    return quiet
  }
}
