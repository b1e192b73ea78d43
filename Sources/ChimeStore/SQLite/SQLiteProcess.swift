internal import CSQLite

/// Process-wide SQLite settings, made before SQLite initializes (`sqlite3_config` is refused
/// after): every path into SQLite in this module goes through `configure()` first.
///
/// Memory statistics are off: with them SQLite takes a global mutex around each of its
/// allocations and frees, about 80 lock and unlock pairs per add (callgrind, bench/NOTES.md),
/// and chimed reads none of them (no soft heap limit, no `sqlite3_memory_used`).
enum SQLiteProcess {
  /// Applies the settings the first time it is called; false when SQLite had already
  /// initialized (another user of SQLite in the process came first: its defaults stand).
  @discardableResult
  static func configure() -> Bool { configured }

  private static let configured: Bool = chime_sqlite3_config_memstatus_off() == SQLITE_OK
}
