#!/usr/bin/env bash
# The 20,000-event scan figure (issue 41): generates a vdir of COUNT items (default 20000; one
# in ten recurring weekly, each with a 15-minute display alarm, spread over ten years around
# now) and times the scan chimed runs on it — `chime-calendar scan` over chimed's two-day
# window — printing wall time, peak RSS and the alarms found. The helper is where items are
# parsed and planned; chimed receives only the window's alarms and one line per file.
#
#   scripts/calendar/scan-bench.sh [COUNT]        (BUILD_DIR, default .build/debug)
set -euo pipefail
cd "$(dirname "$0")/../.."
count="${1:-20000}"
helper="${BUILD_DIR:-.build/debug}/chime-calendar"
[ -x "$helper" ] || { echo "scan-bench: $helper is missing (swift build)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
now=$(date +%s)
python3 - "$work/vdir" "$count" "$now" <<'PY'
import os, sys, time
out, count, now = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out)
span = 10 * 365 * 86400
for i in range(count):
    start = now - span + (i * span // count) + span // 2
    t = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(start))
    e = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(start + 1800))
    rule = "RRULE:FREQ=WEEKLY;COUNT=52\r\n" if i % 10 == 0 else ""
    with open(os.path.join(out, "event-%05d.ics" % i), "w") as f:
        f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\n"
                f"UID:event-{i}@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:{t}\r\nDTEND:{e}\r\n{rule}"
                f"SUMMARY:Event {i}\r\nLOCATION:Room {i % 40}\r\n"
                "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
                "END:VEVENT\r\nEND:VCALENDAR\r\n")
PY
after=$((now * 1000)); until=$(((now + 2 * 86400) * 1000))
/usr/bin/time -f "%e s wall, %M KiB peak RSS" -o "$work/time" "$helper" scan "$work/vdir" "$after" "$until" UTC >"$work/out"
echo "files: $(grep -c '^[FE]' "$work/out"), alarms in the window: $(grep -c '^A' "$work/out"), output: $(wc -c <"$work/out") bytes"
echo "chime-calendar scan of $count items: $(cat "$work/time")"
