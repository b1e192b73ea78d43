#!/usr/bin/env bash
# Add latency over the D-Bus API beside the native socket, measured in one run (bench_add.c):
# a private dbus-daemon and a chimed of its own in a temporary directory, both stopped by pid.
#   tests/dbus/bench.sh [N]      (default 1000 adds each)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${CHIME_BIN_DIR:-$repo/.build/release}
[ -x "$bin/chimed" ] || bin=$repo/.build/debug
n=${1:-1000}
make -s -C "$repo/clients/c" >/dev/null
tmp=$(mktemp -d /tmp/chime-dbus-bench.XXXXXX)
bus_pid= chimed_pid=
cleanup() {
  [ -n "$chimed_pid" ] && kill -TERM "$chimed_pid" 2>/dev/null && wait "$chimed_pid" 2>/dev/null || true
  [ -n "$bus_pid" ] && kill -TERM "$bus_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cc -O2 -o "$tmp/bench_add" "$here/bench_add.c" -I"$repo/clients/c/include" "$repo/clients/c/build/libchime-client.a" \
  -lprotobuf-c -lsystemd
cat > "$tmp/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$tmp/bus</listen>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
bus_pid=$(dbus-daemon --config-file="$tmp/bus.conf" --fork --print-pid=1 --nosyslog)
export DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/bus
"$bin/chimed" --socket "$tmp/chimed.sock" --data-dir "$tmp/data" --presenter none --sound-player none \
  --max-pending-per-app $((n * 2 + 200)) > "$tmp/chimed.log" 2>&1 &
chimed_pid=$!
for _ in $(seq 1 100); do grep -q "serving the D-Bus API" "$tmp/chimed.log" && break; sleep 0.1; done
grep -q "serving the D-Bus API" "$tmp/chimed.log" || { echo "chimed did not serve the D-Bus API:" >&2; cat "$tmp/chimed.log" >&2; exit 1; }
echo "chimed: $bin/chimed"
timeout 600 "$tmp/bench_add" "$tmp/chimed.sock" "$n"
