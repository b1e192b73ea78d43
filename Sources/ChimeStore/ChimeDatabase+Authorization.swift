public import ChimeCore
import Logging

extension ChimeDatabase {
  /// Every app's recorded authorization and badge count (apps with nothing recorded are absent).
  /// A row that does not decode is logged and left out (read at start-up: one damaged row must
  /// not keep every app from being served); reading that app alone answers STORE_CORRUPT.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`.
  public func authorizations() throws(ChimeError) -> [String: AppAuthorization] {
    let logger = self.logger
    return try read("authorizations") { db in
      var all: [String: AppAuthorization] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT app, status, granted, badge_count FROM app_authorization")) {
        do {
          all[try row.decode(String.self, atIndex: 0)] = try Self.authorization(from: row, offset: 1)
        } catch {
          logger.error("unreadable app authorization left out", metadata: ["row": "\(row)", "cause": "\(error)"])
        }
      }
      return all
    }
  }

  /// `app`'s recorded authorization and badge count (`.none` when nothing is recorded).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func authorization(_ app: String) throws(ChimeError) -> AppAuthorization {
    try read("authorization \(app)") { db in try Self.authorization(app, db: db) }
  }

  static func authorization(_ app: String, db: Database) throws -> AppAuthorization {
    let select = try db.cachedStatement(sql: "SELECT status, granted, badge_count FROM app_authorization WHERE app = ?")
    return try Row.fetchOne(select, arguments: [app]).map { try authorization(from: $0, offset: 0) } ?? .none
  }

  /// Columns status, granted, badge_count from `offset`.
  private static func authorization(from row: Row, offset: Int) throws -> AppAuthorization {
    try StoreError.decoding("app authorization") {
      let granted: Int? = try row.decode(atIndex: offset + 1)
      return AppAuthorization(status: AuthorizationStatus(rawValue: try row.decode(atIndex: offset)) ?? .notDetermined,
                              granted: granted.map(AuthorizationOptions.init(rawValue:)), badgeCount: try row.decode(atIndex: offset + 2))
    }
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
