public import ChimeCore
import Foundation
import GRDB

extension ChimeDatabase {
  /// The registered layout of `app`, or nil when it never registered.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func app(_ app: String) throws(ChimeError) -> AppLayout? {
    try read("app \(app)") { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT id, container, groups, bundle FROM app WHERE id = ?"), arguments: [app])
        .map(Self.layout(from:))
    }
  }

  /// Every registered app, by identifier.
  public func apps() throws(ChimeError) -> [AppLayout] {
    try read("apps") { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, container, groups, bundle FROM app ORDER BY id")).map(Self.layout(from:))
    }
  }

  static func layout(from row: Row) throws -> AppLayout {
    let groups = try JSONDecoder().decode([String].self, from: Data((row[2] as String).utf8))
    return AppLayout(appID: row[0], container: row[1], groupContainers: groups, bundle: row[3])
  }

  func registerApp(_ layout: AppLayout, at: Instant, db: Database) throws -> MutationOutcome {
    guard !layout.appID.isEmpty else { throw ChimeError.invalidArgument("INVALID_APP_ID", "app id is empty", field: "app_id") }
    let groups = String(decoding: try JSONEncoder().encode(layout.groupContainers), as: UTF8.self)
    try db.cachedStatement(sql: """
      INSERT INTO app (id, container, groups, bundle, registered_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET container = excluded.container, groups = excluded.groups,
        bundle = excluded.bundle, registered_at = excluded.registered_at
      """).execute(arguments: [layout.appID, layout.container, groups, layout.bundle, at.unixMillis])
    return MutationOutcome()
  }
}
