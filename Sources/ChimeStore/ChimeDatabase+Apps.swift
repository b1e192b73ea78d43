public import ChimeCore

extension ChimeDatabase {
  /// The registered layout of `app`, or nil when it never registered.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func app(_ app: String) throws(ChimeError) -> AppLayout? {
    try read("app \(app)") { db in
      try Row.fetchOne(db.cachedStatement(sql: "SELECT id, container, groups, bundle, display_name, desktop_entry FROM app WHERE id = ?"), arguments: [app])
        .map(Self.layout(from:))
    }
  }

  /// Every registered app, by identifier.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func apps() throws(ChimeError) -> [AppLayout] {
    try read("apps") { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, container, groups, bundle, display_name, desktop_entry FROM app ORDER BY id")).map(Self.layout(from:))
    }
  }

  /// Every app with a registered layout, a pending request or a delivered notification, by
  /// identifier (each once). With the authorization records the loop holds, these are the apps
  /// `ListKnownApps` lists.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func appsWithData() throws(ChimeError) -> [String] {
    try read("apps with data") { db in
      try String.fetchAll(db.cachedStatement(sql: """
        SELECT id FROM app UNION SELECT app FROM app_pending WHERE count > 0 UNION SELECT DISTINCT app FROM delivered ORDER BY 1
        """))
    }
  }

  static func layout(from row: Row) throws -> AppLayout {
    try StoreError.decoding("app registration") {
      let text: String = try row.decode(atIndex: 2)
      guard let groups = JSONStringList.strings(from: text) else {
        throw RowDecodingError(column: 2, value: .text(text), type: [String].self)
      }
      return AppLayout(appID: try row.decode(atIndex: 0), container: try row.decode(atIndex: 1), groupContainers: groups,
                       bundle: try row.decode(atIndex: 3), displayName: try row.decode(atIndex: 4), desktopEntry: try row.decode(atIndex: 5))
    }
  }
}
