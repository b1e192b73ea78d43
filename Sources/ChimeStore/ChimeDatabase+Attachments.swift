public import ChimeCore

/// Attachment files are held by a request lineage, (app, identifier): by its pending request,
/// its delivered notification, its snoozed notification, or several. The mutations move the
/// three flags; a file that none holds any more is dropped from the table in the same transaction and named in
/// `MutationOutcome.discardedFiles`, for the daemon to unlink after the commit.
extension ChimeDatabase {
  /// Bytes of attachments `app` holds now.
  public func attachmentUsage(app: String) throws(ChimeError) -> Int64 {
    try read("attachment usage of \(app)") { db in
      try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(bytes), 0) FROM attachment WHERE app = ?"), arguments: [app]) ?? 0
    }
  }

  /// Bytes `app` would hold if its request `identifier` were replaced: what the pending request
  /// alone holds does not count, nor, for a request delivered at once (which replaces the
  /// earlier delivered notification too), anything the lineage holds.
  public func attachmentUsage(app: String, replacing identifier: String, deliveredAtOnce: Bool = false) throws(ChimeError) -> Int64 {
    try read("attachment usage of \(app)") { db in
      let freed = deliveredAtOnce ? "identifier = ? AND in_snoozed = 0" : "identifier = ? AND in_pending = 1 AND in_delivered = 0 AND in_snoozed = 0"
      return try Int64.fetchOne(db.cachedStatement(sql: """
        SELECT COALESCE(SUM(bytes), 0) FROM attachment WHERE app = ? AND NOT (\(freed))
        """), arguments: [app, identifier]) ?? 0
    }
  }

  /// Every store path a row names.
  public func attachmentPaths() throws(ChimeError) -> Set<String> {
    try read("attachment paths") { db in
      Set(try String.fetchAll(db.cachedStatement(sql: "SELECT path FROM attachment")))
    }
  }

  enum Holder: String {
    case pending = "in_pending"
    case delivered = "in_delivered"
    case snoozed = "in_snoozed"
  }

  /// Records the attachments of a request just stored as `holder`, and fails the mutation
  /// when the app would pass its quota.
  func holdAttachments(_ request: NotificationRequest, as holder: Holder, app: String, db: Database) throws {
    let infos = request.content.attachments.compactMap(\.info).filter { !$0.storePath.isEmpty }
    guard !infos.isEmpty else { return }
    let insert = try db.cachedStatement(sql: """
      INSERT INTO attachment (path, app, identifier, bytes, in_pending, in_delivered) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (path) DO UPDATE SET \(holder.rawValue) = 1
      """)
    for info in infos {
      try insert.execute(arguments: [info.storePath, app, request.identifier, Int64(clamping: info.bytes),
                                     holder == .pending ? 1 : 0, holder == .delivered ? 1 : 0])
    }
    let used = try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(bytes), 0) FROM attachment WHERE app = ?"),
                                  arguments: [app]) ?? 0
    guard used <= attachmentQuota else {
      throw ChimeError(.attachmentQuotaExceeded,
                       "attachments would take \(used) bytes; the app's quota is \(attachmentQuota) bytes. Remove pending requests or delivered notifications that hold attachments",
                       field: "request.content.attachments")
    }
  }

  /// The lineage `identifier` (nil: every lineage of `app`) no longer holds files as `holder`.
  func releaseAttachments(_ holder: Holder, app: String, identifier: String?, db: Database) throws {
    if let identifier {
      try db.cachedStatement(sql: "UPDATE attachment SET \(holder.rawValue) = 0 WHERE app = ? AND identifier = ? AND \(holder.rawValue) = 1")
        .execute(arguments: [app, identifier])
    } else {
      try db.cachedStatement(sql: "UPDATE attachment SET \(holder.rawValue) = 0 WHERE app = ? AND \(holder.rawValue) = 1")
        .execute(arguments: [app])
    }
  }

  /// A fire delivered the pending request: its delivered notification now holds exactly the
  /// files the pending request holds (an earlier delivered notification's files are let go).
  func deliverAttachments(app: String, identifier: String, db: Database) throws {
    try db.cachedStatement(sql: "UPDATE attachment SET in_delivered = in_pending WHERE app = ? AND identifier = ?")
      .execute(arguments: [app, identifier])
  }

  /// The lineage's delivered notification was snoozed: its snoozed notification now holds
  /// exactly the files the delivered one held (an earlier snooze's files are let go), and the
  /// delivered list no longer holds any.
  func snoozeAttachments(app: String, identifier: String, db: Database) throws {
    try db.cachedStatement(sql: "UPDATE attachment SET in_snoozed = in_delivered, in_delivered = 0 WHERE app = ? AND identifier = ?")
      .execute(arguments: [app, identifier])
  }

  /// A snoozed notification came back: the delivered notification now holds exactly its files.
  func unsnoozeAttachments(app: String, identifier: String, db: Database) throws {
    try db.cachedStatement(sql: "UPDATE attachment SET in_delivered = in_snoozed, in_snoozed = 0 WHERE app = ? AND identifier = ?")
      .execute(arguments: [app, identifier])
  }

  /// Drops rows nothing holds and returns their paths, to unlink after the commit.
  func collectAttachments(app: String, identifier: String?, db: Database) throws -> [String] {
    if let identifier {
      // Looked up first, deleted only when there are some: a DELETE ... RETURNING gathers its
      // rows in a temporary b-tree, whose pager SQLite allocates (two 85 KiB blocks) on every
      // replacement and removal, almost all of which have no files.
      let paths = try String.fetchAll(db.cachedStatement(sql: """
        SELECT path FROM attachment WHERE app = ? AND identifier = ? AND in_pending = 0 AND in_delivered = 0 AND in_snoozed = 0
        """), arguments: [app, identifier])
      guard !paths.isEmpty else { return [] }
      try db.cachedStatement(sql: """
        DELETE FROM attachment WHERE app = ? AND identifier = ? AND in_pending = 0 AND in_delivered = 0 AND in_snoozed = 0
        """).execute(arguments: [app, identifier])
      return paths
    }
    return try String.fetchAll(db.cachedStatement(sql: """
      DELETE FROM attachment WHERE app = ? AND in_pending = 0 AND in_delivered = 0 AND in_snoozed = 0 RETURNING path
      """), arguments: [app])
  }
}
