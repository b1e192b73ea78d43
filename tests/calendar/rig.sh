#!/usr/bin/env bash
# End-to-end rig for calendars (issue 41): a real CalDAV server (Radicale, 127.0.0.1 on a free
# port, a temporary storage folder, no authentication), an event with a VALARM created through
# CalDAV (python3-caldav), synced into a temporary vdir by vdirsyncer, and
# `chime calendar alarms --path VDIR --json` checked on it. Everything lives in one temporary
# directory; the server is stopped by its pid. A few seconds.
#
#   tests/calendar/rig.sh          CHIME (default .build/debug/chime) must be built
# Needs Debian's radicale, vdirsyncer and python3-caldav (scripts/install-deps.sh installs
# them); they run under /usr/bin/python3, the system interpreter that has them.
set -euo pipefail
cd "$(dirname "$0")/../.."
chime="${CHIME:-.build/debug/chime}"
py=/usr/bin/python3

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
cat > "$work/radicale.conf" <<CONF
[server]
hosts = 127.0.0.1:$port
[auth]
type = none
[storage]
filesystem_folder = $work/collections
[logging]
level = warning
CONF
"$py" -m radicale --config "$work/radicale.conf" > "$work/radicale.log" 2>&1 &
server_pid=$!

# Ready when it accepts a connection (bounded: 10 s), or it died.
"$py" - "$port" "$server_pid" <<'PY'
import os, socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        sys.exit(0)
    except OSError:
        os.kill(pid, 0)  # raises if the server exited
        time.sleep(0.05)
sys.exit("radicale did not listen within 10 s")
PY

# A daily event (twice) at 09:00 UTC with a DISPLAY alarm 15 minutes before, through CalDAV.
"$py" - "$port" <<'PY'
import sys
import caldav
client = caldav.DAVClient(url=f"http://127.0.0.1:{sys.argv[1]}/", username="rig", password="rig")
calendar = client.principal().make_calendar(name="rig", cal_id="rig")
calendar.save_event("""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Chime rig//EN
BEGIN:VEVENT
UID:chime-rig-1@example.com
DTSTAMP:20291201T000000Z
DTSTART:20300110T090000Z
DTEND:20300110T100000Z
RRULE:FREQ=DAILY;COUNT=2
SUMMARY:Rig meeting
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:Rig meeting
TRIGGER:-PT15M
END:VALARM
END:VEVENT
END:VCALENDAR
""")
PY

# The local collection exists beforehand: discover with no terminal answers "no" to creating it.
mkdir -p "$work/vdir/rig" "$work/status"
cat > "$work/vdirsyncer.conf" <<CONF
[general]
status_path = "$work/status/"

[pair rig]
a = "rig_local"
b = "rig_remote"
collections = ["from b"]

[storage rig_local]
type = "filesystem"
path = "$work/vdir/"
fileext = ".ics"

[storage rig_remote]
type = "caldav"
url = "http://127.0.0.1:$port/"
username = "rig"
password = "rig"
CONF
vdirsyncer -c "$work/vdirsyncer.conf" discover < /dev/null > "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
collection="$work/vdir/rig"
ls "$collection"/*.ics > /dev/null || { echo "rig: vdirsyncer wrote no item into $collection" >&2; cat "$work/vdirsyncer.log" >&2; exit 1; }

"$chime" calendar alarms --path "$collection" --after 2030-01-01T00:00:00Z --until 2030-02-01T00:00:00Z --tz UTC --json > "$work/alarms.json"
"$py" - "$work/alarms.json" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
want = [
    {"uid": "chime-rig-1@example.com", "recurrence_id": "2030-01-10T09:00:00Z", "summary": "Rig meeting", "at": "2030-01-10T08:45:00Z", "action": "DISPLAY"},
    {"uid": "chime-rig-1@example.com", "recurrence_id": "2030-01-11T09:00:00Z", "summary": "Rig meeting", "at": "2030-01-11T08:45:00Z", "action": "DISPLAY"},
]
if got != want:
    sys.exit(f"rig: chime calendar alarms gave {json.dumps(got)}, expected {json.dumps(want)}")
print("ok   calendar rig: Radicale -> caldav -> vdirsyncer -> chime calendar alarms (2 alarms)")
PY
