internal import CSQLite

/// SQLite's online backup: a page-by-page copy of one database into another.
enum Backup {
  /// Copies `source`'s main database over `destination`'s in one step (one consistent state of
  /// the source; the destination takes its page size).
  static func copy(from source: Database, to destination: Database) throws(DatabaseError) {
    guard let backup = sqlite3_backup_init(destination.sqliteConnection, "main", source.sqliteConnection, "main") else {
      throw DatabaseError(code: sqlite3_errcode(destination.sqliteConnection), connection: destination.sqliteConnection)
    }
    let stepped = sqlite3_backup_step(backup, -1)
    let finished = sqlite3_backup_finish(backup)
    guard stepped == SQLITE_DONE else {
      throw DatabaseError(code: stepped, connection: stepped == SQLITE_BUSY || stepped == SQLITE_LOCKED ? nil : destination.sqliteConnection)
    }
    guard finished == SQLITE_OK else { throw DatabaseError(code: finished, connection: destination.sqliteConnection) }
  }
}
