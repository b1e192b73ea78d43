#!/usr/bin/env bash
# `make screenshots`: docs/center-*.png, one per page of Chime Center, shown in the README. A
# private session (tests/center/session.sh: Xvfb, a session bus that activates the built chimed),
# seeded through the `chime` CLI with a few apps' notifications, the Center started as installed
# and its pages switched through AT-SPI (tests/center/shoot.py). Everything it started is stopped
# by pid. Needs `swift build` and scripts/install-deps.sh. Usage: scripts/center-screenshots.sh [DIR]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$(cd "${1:-$repo/docs}" && pwd)
bin=${CHIME_BIN_DIR:-$repo/.build/debug}
tmp=$(mktemp -d /tmp/chime-center-shots.XXXXXX)
SCREEN=900x760x24
source "$repo/tests/center/session.sh"
trap 'session_stop; rm -rf "$tmp"' EXIT
session_start
apps=$XDG_DATA_HOME/applications
printf '[Desktop Entry]\nType=Application\nName=Tea Timer\nExec=true\nIcon=preferences-system-time\n' > "$apps/org.example.tea.desktop"
printf '[Desktop Entry]\nType=Application\nName=Daily News\nExec=true\nIcon=web-browser\n' > "$apps/org.example.news.desktop"
printf '[Desktop Entry]\nType=Application\nName=Parcel Tracker\nExec=true\nIcon=mail-send\n' > "$apps/org.example.parcels.desktop"

# chimed comes up through the bus, as the Center would start it.
gdbus call --session -d io.github.chime.Chime1 -o /io/github/chime/Chime1 -m org.freedesktop.DBus.Peer.Ping >/dev/null
session_wait test -S "$CHIME_SOCKET"
c=$bin/chime
q() { "$c" "$@" >/dev/null; }
q authorize --alert --sound --badge --app org.example.tea
q authorize --alert --sound --badge --time-sensitive --app org.example.news
q authorize --alert --app org.example.parcels
q add steep --app org.example.tea --title "Steep the tea" --in 4m
q add standup --app org.example.tea --title "Standup" --calendar "weekday=mon,hour=9,minute=30" --repeats
q add weekday --app org.example.news --title "Morning headlines" --calendar "hour=7,minute=0" --repeats
q add kettle --app org.example.tea --title "Kettle boiled" --body "Pour now, 85 °C"
q add digest --app org.example.news --title "Evening digest" --body "Five stories you missed"
q add nap --app org.example.tea --title "Nap is over"
q snooze nap 20m --app org.example.tea
q badge 3 --app org.example.news
q dnd summary on
q dnd on --until "$(date -d 'tomorrow 08:00' +%Y-%m-%dT%H:%M:%S%:z)"
q add parcel --app org.example.parcels --title "Parcel delivered" --body "Left at the front door"
q dnd schedule 22:00-07:00
q apps settings org.example.parcels --sound off
vdir=$tmp/calendars/personal
mkdir -p "$vdir"
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Chime screenshots//EN\r\nBEGIN:VEVENT\r\nUID:dentist\r\nDTSTAMP:20990101T000000Z\r\nDTSTART:%s\r\nSUMMARY:Dentist\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Dentist\r\nTRIGGER:-PT30M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' \
  "$(date -u -d 'tomorrow 14:00' +%Y%m%dT%H%M%SZ)" > "$vdir/dentist.ics"
printf 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n' > "$vdir/broken.ics"
q calendar add personal "$vdir"

make -s -C "$repo" install-center PREFIX="$tmp/prefix" DESTDIR= >/dev/null
"$tmp/prefix/libexec/chime/chime-center" >"$tmp/center.log" 2>&1 &
pids+=($!)
CHIME=$c timeout 60 /usr/bin/python3 "$repo/tests/center/shoot.py" "$out" || { tail -20 "$tmp/center.log" >&2; exit 1; }
