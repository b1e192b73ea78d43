#!/usr/bin/env bash
# Takes docs/desktop-notification.png: a notification from Chime with its action buttons, as a
# desktop shows it. Everything is private and stopped at the end (by pid): Xvfb on a free
# display, a session bus of its own, notification-daemon (it draws action buttons; dunst does
# not) and chimed on a socket in a temporary directory.
# Needs `swift build` first and scripts/install-deps.sh. Usage: scripts/screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/desktop-notification.png}
bin=$(swift build --show-bin-path)
tmp=$(mktemp -d /tmp/chime-shot-XXXXXX)
pids=()
cleanup() {
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Waits (bounded, 10 s) until the command succeeds.
wait_for() {
  for _ in $(seq 100); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "screenshot: timed out waiting for: $*" >&2
  return 1
}

n=$((300 + $$ % 300))
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 480x200x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
pids+=($!)
wait_for test -S "/tmp/.X11-unix/X$n"
export DISPLAY=":$n"

# No services started on demand: Debian's session.conf would start dunst (no buttons) when the
# first call comes before notification-daemon owns the name.
cat >"$tmp/bus.conf" <<'XML'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
dbus-daemon --config-file="$tmp/bus.conf" --nofork --address="unix:path=$tmp/bus" >"$tmp/dbus.log" 2>&1 &
pids+=($!)
wait_for test -S "$tmp/bus"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$tmp/bus"

/usr/lib/notification-daemon/notification-daemon >"$tmp/server.log" 2>&1 &
pids+=($!)
wait_for dbus-send --print-reply --dest=org.freedesktop.Notifications /org/freedesktop/Notifications \
  org.freedesktop.Notifications.GetCapabilities

"$bin/chimed" --socket "$tmp/chimed.sock" --data-dir "$tmp/data" --apps-dir "$tmp/apps" \
  --presenter freedesktop --sound-player none --log-level debug >"$tmp/chimed.out" 2>"$tmp/chimed.log" &
pids+=($!)
wait_for grep -q listening "$tmp/chimed.out"
export CHIME_SOCKET="$tmp/chimed.sock" CHIME_APP=org.example.tea

cat >"$tmp/categories.json" <<'JSON'
[{"identifier":"brew","actions":[{"identifier":"again","title":"Brew again"},{"identifier":"later","title":"In 5 minutes"}]}]
JSON
"$bin/chime" categories set "$tmp/categories.json" >/dev/null
# A picture in the app's container, attached with a clip rectangle: the notification shows the
# thumbnail chimed renders from it (the clipped part, scaled to the 300x169 box).
mkdir -p "$tmp/apps/org.example.tea/container"
convert -size 640x360 radial-gradient:'#dcedc8-#33691e' "$tmp/apps/org.example.tea/container/tea.png"
"$bin/chime" add tea --title "Tea is ready" --subtitle "Kitchen timer" \
  --body "Your green tea has steeped for 3 minutes." --category brew \
  --attach "$tmp/apps/org.example.tea/container/tea.png,clip=0.25:0.25:0.5:0.5" >/dev/null
wait_for grep -q "shown on the desktop" "$tmp/chimed.log"
sleep 1  # the server draws after it answers Notify; nothing to poll for that
mkdir -p "$(dirname "$out")"
import -window root "$out"
echo "wrote $out"
