#!/usr/bin/env bash
# End-to-end rig for calendars (issue 41): a real CalDAV server (Radicale, 127.0.0.1 on a free
# port, a temporary storage folder, no authentication), an event with a VALARM created through
# CalDAV (python3-caldav), synced into a temporary vdir by vdirsyncer with the README's
# configuration, `chime calendar alarms --path VDIR --json` checked on it, then the vdir
# registered with a real chimed and the event moved and deleted on the server; then two alarms
# fire, one is dismissed (written back, synced to the server, read by khal) and the other is
# acknowledged on the server (withdrawn). Everything lives in one temporary directory; the server
# and chimed are stopped by their pids. About 20 seconds.
#
#   tests/calendar/rig.sh          CHIME (default .build/debug/chime) and chimed beside it must be built
# Needs Debian's radicale, vdirsyncer, python3-caldav and khal (scripts/install-deps.sh installs
# them); they run under /usr/bin/python3, the system interpreter that has them.
set -euo pipefail
cd "$(dirname "$0")/../.."
chime="${CHIME:-.build/debug/chime}"
chimed="${CHIMED:-$(dirname "$chime")/chimed}"
py=/usr/bin/python3

work="$(mktemp -d)"
server_pid=""
daemon_pid=""
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi
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
# The configuration is the README's ("Calendars"), with the server's URL, its user and the
# paths replaced: what the README tells a user to write is what syncs here.
mkdir -p "$work/home/.local/share/calendars/rig" "$work/home/.local/share/vdirsyncer/status"
"$py" - README.md "$work" "$port" > "$work/vdirsyncer.conf" <<'PY'
import re, sys
readme, work, port = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
section = readme[readme.index("## Calendars\n"):]
block = re.search(r"```ini\n(.*?)```", section, re.S).group(1)
replacements = [('url = "https://caldav.example.com/"', f'url = "http://127.0.0.1:{port}/"'),
                ('username = "me"', 'username = "rig"'),
                ('password.fetch = ["command", "secret-tool", "lookup", "service", "caldav"]', 'password = "rig"'),
                ('"~/', f'"{work}/home/')]
for old, new in replacements:
    if old not in block:
        sys.exit(f"rig: the README's vdirsyncer configuration no longer has {old!r}")
    block = block.replace(old, new)
print(block, end="")
PY
vdirsyncer -c "$work/vdirsyncer.conf" discover calendars < /dev/null > "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
collection="$work/home/.local/share/calendars/rig"
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

# The same vdir registered with a real chimed whose clock reads 2030-01-10T08:00Z (its hidden
# --clock-offset): both alarms are pending under the calendar's app; the event moved on the
# server, then deleted, moves then withdraws them once vdirsyncer has synced (inotify).
offset=$("$py" -c 'import time; print(int(1894262400 - time.time()))')
env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/run" "$chimed" --socket "$work/chimed.sock" --data-dir "$work/data" \
  --clock-offset="$offset" > "$work/chimed.out" 2> "$work/chimed.log" &
daemon_pid=$!
for _ in $(seq 100); do
  grep -q "^chimed listening on " "$work/chimed.out" 2>/dev/null && break
  kill -0 "$daemon_pid" 2>/dev/null || { echo "rig: chimed exited" >&2; cat "$work/chimed.log" >&2; exit 1; }
  sleep 0.1
done
grep -q "^chimed listening on " "$work/chimed.out" || { echo "rig: chimed did not listen within 10 s" >&2; exit 1; }
# --timeout 0: a deadline from the real clock would have passed already on chimed's.
c() { "$chime" "$@" --socket "$work/chimed.sock" --timeout 0; }
c calendar add rig "$collection" --json > "$work/added.json"
pending() { c pending --app io.github.chime.calendar.rig --json; }
# Waits (bounded: 10 s) until the calendar app's pending alarms are at the instants given.
expect_pending() {
  for _ in $(seq 100); do
    got=$(pending | "$py" -c 'import json, sys; print(" ".join(p["next_fire"] for p in json.load(sys.stdin)))')
    [ "$got" = "$1" ] && return 0
    sleep 0.1
  done
  echo "rig: pending alarms are [$got], expected [$1] ($2)" >&2
  cat "$work/chimed.log" >&2
  exit 1
}
"$py" -c 'import json, sys; a = json.load(open(sys.argv[1])); assert (a["items"], a["alarms"], a["app_id"]) == (1, 2, "io.github.chime.calendar.rig"), a' "$work/added.json"
expect_pending "2030-01-10T08:45:00.000Z 2030-01-11T08:45:00.000Z" "after calendar add"

"$py" - "$port" <<'PY'
import sys
import caldav
client = caldav.DAVClient(url=f"http://127.0.0.1:{sys.argv[1]}/", username="rig", password="rig")
event = client.principal().calendar(cal_id="rig").event_by_uid("chime-rig-1@example.com")
event.data = event.data.replace("DTSTART:20300110T090000Z", "DTSTART:20300110T100000Z").replace(
    "DTEND:20300110T100000Z", "DTEND:20300110T110000Z")
event.save()
PY
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
expect_pending "2030-01-10T09:45:00.000Z 2030-01-11T09:45:00.000Z" "after the event moved on the server"

"$py" - "$port" delete <<'PY'
import sys
import caldav
client = caldav.DAVClient(url=f"http://127.0.0.1:{sys.argv[1]}/", username="rig", password="rig")
client.principal().calendar(cal_id="rig").event_by_uid("chime-rig-1@example.com").delete()
PY
# Its only item gone, the server's calendar is empty: vdirsyncer asks for --force-delete then.
vdirsyncer -c "$work/vdirsyncer.conf" sync --force-delete calendars/rig >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
expect_pending "" "after the event was deleted on the server"
echo "ok   calendar rig: chime calendar add on the synced vdir; a move and a delete on the server reach chimed's pending alarms"

# Write-back (RFC 9074). Two events whose alarms fall due 12 s from now on chimed's clock, made
# on the server and synced; both fire. One is dismissed with `chime delivered --remove`: chimed
# writes ACKNOWLEDGED into its VALARM in the vdir, vdirsyncer carries it to Radicale, and khal
# still reads the item. The other is acknowledged on the server (another device): after a sync
# its notification leaves chimed's delivered list.
"$py" - "$port" "$offset" > "$work/due.txt" <<'PY'
import math, sys, time
import caldav
port, offset = sys.argv[1], int(sys.argv[2])
due = math.ceil(time.time() + offset) + 12
def utc(t): return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))
client = caldav.DAVClient(url=f"http://127.0.0.1:{port}/", username="rig", password="rig")
calendar = client.principal().calendar(cal_id="rig")
for uid, summary in (("chime-rig-2@example.com", "Rig standup"), ("chime-rig-3@example.com", "Rig review")):
    calendar.save_event(f"""BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Chime rig//EN
BEGIN:VEVENT
UID:{uid}
DTSTAMP:20291201T000000Z
DTSTART:{utc(due + 900)}
DTEND:{utc(due + 2700)}
SUMMARY:{summary}
BEGIN:VALARM
ACTION:DISPLAY
DESCRIPTION:{summary}
TRIGGER:-PT15M
END:VALARM
END:VEVENT
END:VCALENDAR
""")
print(utc(due))
PY
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
delivered() { c delivered --app io.github.chime.calendar.rig --json; }
# Waits (bounded: 30 s) until the calendar app's delivered titles are those given.
expect_delivered() {
  for _ in $(seq 300); do
    got=$(delivered | "$py" -c 'import json, sys; print(",".join(sorted(d["content"]["title"] for d in json.load(sys.stdin))))')
    [ "$got" = "$1" ] && return 0
    sleep 0.1
  done
  echo "rig: delivered alarms are [$got], expected [$1] ($2)" >&2
  cat "$work/chimed.log" >&2
  exit 1
}
expect_delivered "Rig review,Rig standup" "when their alarms fell due"
standup_id=$(delivered | "$py" -c 'import json, sys; print(next(d["id"] for d in json.load(sys.stdin) if d["content"]["title"] == "Rig standup"))')
standup_file=$(grep -l "UID:chime-rig-2@example.com" "$collection"/*.ics)
cp -p "$standup_file" "$work/standup.before"
c delivered --app io.github.chime.calendar.rig --remove "$standup_id" > /dev/null
for _ in $(seq 100); do grep -q "^ACKNOWLEDGED:" "$standup_file" && break; sleep 0.1; done
grep -q "^ACKNOWLEDGED:" "$standup_file" || { echo "rig: no ACKNOWLEDGED in $standup_file after the dismissal" >&2; cat "$standup_file" "$work/chimed.log" >&2; exit 1; }
# Byte for byte the file vdirsyncer wrote, with one line more (before END:VALARM), same mode.
"$py" - "$work/standup.before" "$standup_file" <<'PY'
import os, re, sys
before, after = (open(p, "rb").read() for p in sys.argv[1:3])
added = re.search(rb"\r?\nACKNOWLEDGED:\d{8}T\d{6}Z(\r?\n)END:VALARM", after)
if not added or after[:added.start()] + after[added.end() - len(added.group(1)) - len(b"END:VALARM"):] != before:
    sys.exit(f"rig: chimed changed more than the ACKNOWLEDGED line:\n{before!r}\n{after!r}")
if os.stat(sys.argv[1]).st_mode != os.stat(sys.argv[2]).st_mode:
    sys.exit("rig: the item's mode changed")
PY
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
"$py" - "$port" <<'PY'
import sys
import caldav
client = caldav.DAVClient(url=f"http://127.0.0.1:{sys.argv[1]}/", username="rig", password="rig")
data = client.principal().calendar(cal_id="rig").event_by_uid("chime-rig-2@example.com").data
alarm = data[data.index("BEGIN:VALARM"):data.index("END:VALARM")]
if "ACKNOWLEDGED:" not in alarm:
    sys.exit(f"rig: the server's copy has no ACKNOWLEDGED in its VALARM:\n{data}")
PY
cat > "$work/khal.conf" <<CONF
[calendars]
[[rig]]
path = $collection
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
[default]
default_calendar = rig
CONF
khal -c "$work/khal.conf" list "$(cut -c1-4 "$work/due.txt")-$(cut -c5-6 "$work/due.txt")-$(cut -c7-8 "$work/due.txt")" 2d > "$work/khal.out" 2> "$work/khal.err" \
  || { echo "rig: khal failed on the vdir chimed wrote into" >&2; cat "$work/khal.err" >&2; exit 1; }
grep -q "Rig standup" "$work/khal.out" || { echo "rig: khal does not list the event chimed wrote into" >&2; cat "$work/khal.out" "$work/khal.err" >&2; exit 1; }
echo "ok   calendar rig: a dismissal (chime delivered --remove) is written into the item, reaches Radicale after vdirsyncer sync, and khal reads the item"

"$py" - "$port" "$(cat "$work/due.txt")" <<'PY'
import sys
import caldav
client = caldav.DAVClient(url=f"http://127.0.0.1:{sys.argv[1]}/", username="rig", password="rig")
event = client.principal().calendar(cal_id="rig").event_by_uid("chime-rig-3@example.com")
event.data = event.data.replace("END:VALARM", f"ACKNOWLEDGED:{sys.argv[2]}\r\nEND:VALARM", 1)
event.save()
PY
vdirsyncer -c "$work/vdirsyncer.conf" sync >> "$work/vdirsyncer.log" 2>&1 || { cat "$work/vdirsyncer.log" >&2; exit 1; }
expect_delivered "" "after the other alarm was acknowledged on the server"
echo "ok   calendar rig: an alarm acknowledged on the server leaves chimed's delivered list after vdirsyncer sync"
