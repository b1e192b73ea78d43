public import ChimeCore
import GRDB

extension ChimeDatabase {
  /// Every app's recorded authorization and badge count (apps with nothing recorded are absent).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func authorizations() throws(ChimeError) -> [String: AppAuthorization] {
    try read("authorizations") { db in
      var all: [String: AppAuthorization] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT app, status, granted, badge_count FROM app_authorization")) {
        all[row[0]] = Self.authorization(from: row, offset: 1)
      }
      return all
    }
  }

  /// `app`'s recorded authorization and badge count (`.none` when nothing is recorded).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func authorization(_ app: String) throws(ChimeError) -> AppAuthorization {
    try read("authorization \(app)") { db in try Self.authorization(app, db: db) }
  }

  static func authorization(_ app: String, db: Database) throws -> AppAuthorization {
    let select = try db.cachedStatement(sql: "SELECT status, granted, badge_count FROM app_authorization WHERE app = ?")
    return try Row.fetchOne(select, arguments: [app]).map { authorization(from: $0, offset: 0) } ?? .none
  }

  private static func authorization(from row: Row, offset: Int) -> AppAuthorization {
    let granted: Int? = row[offset + 1]
    return AppAuthorization(status: AuthorizationStatus(rawValue: row[offset]) ?? .notDetermined,
                            granted: granted.map(AuthorizationOptions.init(rawValue:)), badgeCount: row[offset + 2])
  }
}

extension WriteTransaction {
  /// Sets `app`'s badge count; returns the `.badgeChanged` event (stored) when it changed.
  func setBadge(_ count: Int, app: String, at: Instant, identifiers: [String] = []) throws -> Event? {
    guard count >= 0 else { throw ChimeError(.badgeInputInvalid, "the badge count must be 0 or more (got \(count))", field: "count") }
    let before = try ChimeDatabase.authorization(app, db: db).badgeCount
    guard before != count else { return nil }
    try db.cachedStatement(sql: """
      INSERT INTO app_authorization (app, badge_count, changed_at) VALUES (?, ?, ?)
      ON CONFLICT (app) DO UPDATE SET badge_count = excluded.badge_count, changed_at = excluded.changed_at
      """).execute(arguments: [app, count, at.unixMillis])
    return try append(Event(at: at, kind: .badgeChanged, identifiers: identifiers, badgeCount: count), app: app)
  }
}
