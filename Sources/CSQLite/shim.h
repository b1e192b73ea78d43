// SQLite's C API (Debian's libsqlite3), for the store's own thin layer (Sources/ChimeStore/SQLite)
// and the benchmark's SQLite floor.
#include <sqlite3.h>
