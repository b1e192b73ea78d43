public import ChimeCore

/// Records an app's authorization status and granted permissions, decided before (by the
/// policy for an app's request, or by the user's change). `firstDecision`: only when nothing
/// is decided yet (the status is not determined), so of two first requests racing the first
/// committed wins. The outcome is the record as stored afterwards. No event.
public struct SetAuthorization: Mutation {
  public var app: String
  public var status: AuthorizationStatus
  public var granted: AuthorizationOptions?
  public var firstDecision: Bool
  public var at: Instant

  public init(app: String, status: AuthorizationStatus, granted: AuthorizationOptions?, firstDecision: Bool, at: Instant) {
    self.app = app
    self.status = status
    self.granted = granted
    self.firstDecision = firstDecision
    self.at = at
  }

  public func apply(in t: WriteTransaction) throws -> AppAuthorization {
    guard !app.isEmpty else { throw ChimeError(.invalidAppID, "app id is empty", field: "app_id") }
    try t.db.cachedStatement(sql: """
      INSERT INTO app_authorization (app, status, granted, changed_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (app) DO UPDATE SET status = excluded.status, granted = excluded.granted, changed_at = excluded.changed_at
      \(firstDecision ? "WHERE status = 0" : "")
      """).execute(arguments: [app, status.rawValue, granted?.rawValue, at.unixMillis])
    return try ChimeDatabase.authorization(app, db: t.db)
  }
}
