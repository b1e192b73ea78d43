public import ChimeCore
import ChimeRecords

extension ChimeDatabase {
  /// `app`'s categories in the order they were set; empty when none.
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func categories(app: String) throws(ChimeError) -> [NotificationCategory] {
    let codec = self.codec
    return try read("categories \(app)") { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT body FROM category WHERE app = ? ORDER BY position"), arguments: [app])
        .map { row in try Self.category(from: row, codec: codec) }
    }
  }

  /// `app`'s category named `identifier` as it is now, or nil (also for an empty identifier).
  ///
  /// - Throws: UNAVAILABLE `STORE_READ_FAILED`; INTERNAL `STORE_CORRUPT`.
  public func category(app: String, identifier: String) throws(ChimeError) -> NotificationCategory? {
    guard !identifier.isEmpty else { return nil }
    let codec = self.codec
    return try read("category \(app)/\(identifier)") { db in
      try Self.category(app: app, identifier: identifier, db: db, codec: codec)
    }
  }

  static func category(app: String, identifier: String, db: Database, codec: RecordCodec) throws -> NotificationCategory? {
    let select = try db.cachedStatement(sql: "SELECT body FROM category WHERE app = ? AND identifier = ?")
    return try Row.fetchOne(select, arguments: [app, identifier]).map { row in try category(from: row, codec: codec) }
  }

  /// Column body.
  private static func category(from row: Row, codec: RecordCodec) throws -> NotificationCategory {
    try StoreError.decoding("category") { try codec.decode(NotificationCategory.self, from: row.decode(atIndex: 0)) }
  }
}
