// SQLite's C API (Debian's libsqlite3), for the store's own thin layer (Sources/ChimeStore/SQLite)
// and the benchmark's SQLite floor.
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. Turns SQLite's memory statistics off
// for the process (they take a global mutex around every allocation and free); SQLITE_MISUSE
// once SQLite has initialized.
static inline int chime_sqlite3_config_memstatus_off(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
