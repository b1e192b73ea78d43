// libical (Debian's libical-dev 3.0): parses iCalendar items for ChimeCalendar, which copies
// what alarms need into ChimeCore values (Sources/ChimeCalendar/Internal/LibicalReader.swift is
// the one file that imports this module). Its recurrence expansion is not used: ChimeCore's
// engine expands RRULE (libical's BYSETPOS support is incomplete, libical#795).
#include <libical/ical.h>
