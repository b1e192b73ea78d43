#!/usr/bin/env bash
# chimed's D-Bus API with real parts: a private dbus-daemon whose only service directory holds
# the D-Bus service file from deploy/ (Exec= pointed at the built chimed, as `make install`
# points it at the installed one), so the first call activates chimed. Then one-off calls with
# gdbus and busctl, the dbus-next programs (dbus_api_test.py, kde_inhibited_test.py), the README's example as written,
# and a SIGTERM that gives the name up so the next call activates a new chimed.
#
# Everything lives in a temporary directory; only the processes started here are stopped, by
# pid. CHIME_BIN_DIR picks the chimed (default <repo>/.build/debug); PYTHON the interpreter
# (default: the clients' virtualenv, <repo>/.build-venv, with requirements.txt installed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${CHIME_BIN_DIR:-$repo/.build/debug}
name=io.github.chime.Chime1
path=/io/github/chime/Chime1

for tool in dbus-daemon gdbus busctl; do
  command -v $tool >/dev/null || { echo "tests/dbus: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
[ -x "$bin/chimed" ] || [ "${1:-}" = --prepare ] || { echo "tests/dbus: no chimed at $bin/chimed: run 'swift build' first" >&2; exit 1; }

if [ -n "${PYTHON:-}" ]; then
  python=$PYTHON
else
  venv=$repo/.build-venv
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  python=$venv/bin/python
fi
"$python" -c "import dbus_next" 2>/dev/null || "$python" -m pip install -q -r "$here/requirements.txt"
# --prepare: that virtualenv only (scripts/test-build.sh makes it during the build).
[ "${1:-}" = --prepare ] && exit 0

tmp=$(mktemp -d /tmp/chime-dbus.XXXXXX)
bus_pid=
# Every chimed this script started and that may still run (activated ones once seen as the
# name's owner), stopped by pid; one is forgotten once it is known to have exited.
chimed_pids=()
forget() {
  local kept=() p
  for p in ${chimed_pids[@]+"${chimed_pids[@]}"}; do [ "$p" = "$1" ] || kept+=("$p"); done
  chimed_pids=(${kept[@]+"${kept[@]}"})
}
cleanup() {
  local pid
  pid=$(owner_pid 2>/dev/null || true)
  for pid in $pid ${chimed_pids[@]+"${chimed_pids[@]}"}; do kill -TERM "$pid" 2>/dev/null || true; done
  [ -n "$bus_pid" ] && kill -TERM "$bus_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/services" "$tmp/proc" "$tmp/home" "$tmp/config" "$tmp/data-home"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data-home XDG_RUNTIME_DIR=$tmp
# The service file as installed, with Exec= the built chimed serving from the temp directory
# (through a script that keeps its log); --proc-root lets the tests make a caller look sandboxed.
# shellcheck source=../lib/private-bus.sh
. "$repo/tests/lib/private-bus.sh"
start_private_bus "$tmp" "$repo" "\"$bin/chimed\" --socket \"$tmp/chimed.sock\" --data-dir \"$tmp/data\" --presenter none --sound-player none --proc-root \"$tmp/proc\""
bus_pid=$private_bus_pid

# A one-off tool is a process of its own: it writes its fake /proc entry (a host process) and
# then becomes the tool, keeping its pid.
as_host() {
  timeout 20 sh -c 'mkdir -p "$1/$$/root" && echo "0::/user.slice/app.slice/t.scope" > "$1/$$/cgroup" && shift && exec "$@"' _ "$tmp/proc" "$@"
}
owner_pid() {
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
    GetConnectionUnixProcessID s $name | awk '{print $2}'
}
has_owner() {
  busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
    NameHasOwner s $name | grep -q true
}
fail() {
  echo "FAIL $*" >&2
  [ -f "$tmp/chimed.log" ] && { echo "--- chimed's log:" >&2; tail -20 "$tmp/chimed.log" >&2; }
  exit 1
}

has_owner && fail "the name has an owner before any call"
export CHIME_SOCKET=$tmp/chimed.sock
out=$("$bin/chime" doctor --data-dir "$tmp/data" --config /dev/null 2>&1 | grep dbus-api || true)
echo "$out" | grep -q "activatable" || fail "doctor before activation: $out"
# The first call activates chimed; Register alone is what a one-off call can do.
out=$(as_host gdbus call --session -d $name -o $path -m $name.Register org.example.tea '{}')
[ "$out" = "()" ] || fail "gdbus Register: $out"
chimed_pids+=("$(owner_pid)")
echo "ok   gdbus activates chimed and registers"
out=$(as_host busctl --user call $name $path $name GetPending 'a{sv}' 0 2>&1 || true)
echo "$out" | grep -q "call Register" || fail "busctl before Register: $out"
out=$(as_host busctl --user get-property $name $path $name Version)
echo "$out" | grep -q '^s "' || fail "busctl Version: $out"
echo "ok   busctl reads a refusal and the Version"
out=$("$bin/chime" doctor --data-dir "$tmp/data" --config /dev/null 2>&1 | grep dbus-api || true)
echo "$out" | grep -q "is served (pid $(owner_pid))" || fail "doctor once served: $out"
echo "ok   chime doctor shows the D-Bus API activatable, then served"
out=$(as_host gdbus call --session -d $name -o $path -m $name.Register org.example.tea '{"colour": <"red">}' 2>&1 || true)
echo "$out" | grep -q "$name.Error.INVALID_ARGUMENT" || fail "unknown key: $out"
echo "ok   gdbus: an unknown key is INVALID_ARGUMENT"
# One-off calls name their app per call (app-id in the options): gdbus schedules, delivers at
# once, lists, answers and reads a refusal; another app's call sees none of it.
m="gdbus call --session -d $name -o $path -m $name"
out=$(as_host $m.Add tea-gdbus "{'title': <'Tea'>}" "{'interval': <600.0>}" "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'identifier': <'tea-gdbus'>" && echo "$out" | grep -q "'next-fire': <int64" || fail "gdbus Add: $out"
out=$(as_host $m.Add now-gdbus "{'title': <'Now'>}" "{}" "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'delivered-at'" || fail "gdbus Add at once: $out"
out=$(as_host $m.GetPending "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'identifier': <'tea-gdbus'>" || fail "gdbus GetPending: $out"
out=$(as_host $m.GetPending "{'app-id': <'org.example.other'>}")
[ "$out" = "(@aa{sv} [],)" ] || fail "another app's GetPending: $out"
out=$(as_host $m.Respond now-gdbus "" "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'removed'" || fail "gdbus Respond: $out"
out=$(as_host $m.Add bad "{'title': <'x'>}" "{'interval': <1.0>, 'repeats': <true>}" "{'app-id': <'org.example.gdbus'>}" 2>&1 || true)
echo "$out" | grep -q "$name.Error.INVALID_INTERVAL" || fail "gdbus refusal: $out"
out=$(as_host $m.GetPending "{'app-id': <'not an id'>}" 2>&1 || true)
echo "$out" | grep -q "$name.Error.INVALID_APP_ID" || fail "gdbus bad app-id: $out"
out=$(as_host $m.Add report "{'title': <'Report'>}" "{'recurrence': <{'rule': <'FREQ=MONTHLY;BYDAY=-1FR'>, 'start': <'2026-12-01T17:00'>, 'time-zone': <'Europe/Berlin'>}>}" "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'next-fire': <int64" || fail "gdbus Add with a recurrence rule: $out"
out=$(as_host $m.GetPending "{'app-id': <'org.example.gdbus'>}")
echo "$out" | grep -q "'rule': <'FREQ=MONTHLY;BYDAY=-1FR'>" || fail "gdbus lists the rule as given: $out"
echo "ok   gdbus schedules, lists, answers and reads refusals with app-id per call"

CHIME_TEST_PROC=$tmp/proc CHIME_REPO=$repo CHIME_TEST_TMP=$tmp timeout 120 "$python" "$here/dbus_api_test.py"
# KDE Plasma's Inhibited, followed by a chimed presenting on a fake Plasma (its own bus).
CHIME_BIN_DIR=$bin timeout 60 "$python" "$here/kde_inhibited_test.py"

# The README's example, as written, as a user runs it: with its `pip install dbus-next` line
# (the package tests/dbus/requirements.txt installs here) and no CHIME_SOCKET.
"$python" - "$repo/README.md" "$here/requirements.txt" > "$tmp/readme_example.py" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
section = text.split("## From a desktop app (D-Bus)", 1)[1].split("\n## ", 1)[0]
installs = re.findall(r"```sh\n(pip install .*?)\n```", section)
assert installs == ["pip install dbus-next"], f"the D-Bus example's install line: {installs}"
assert any(line.startswith("dbus-next") for line in open(sys.argv[2])), "dbus-next is not in tests/dbus/requirements.txt"
print(re.search(r"```python\n(.*?)```", section, re.S).group(1))
PY
(cd "$tmp" && env -u CHIME_SOCKET CHIME_TEST_PROC=$tmp/proc timeout 30 "$python" -c '
import os, runpy, sys
sys.path.insert(0, sys.argv[1])
from chime_bus import fake_proc
fake_proc(os.environ["CHIME_TEST_PROC"])
runpy.run_path(sys.argv[2], run_name="__main__")' "$here" "$tmp/readme_example.py") > "$tmp/readme.out" \
  || fail "the README example: $(cat "$tmp/readme.out")"
grep -q "delivered: tea" "$tmp/readme.out" || fail "the README example printed: $(cat "$tmp/readme.out")"
echo "ok   the README example runs as written"

# Losing the bus is not fatal: chimed serves its socket on, and takes its name again on the
# bus that comes back at the same address.
first=$(owner_pid)
kill -TERM "$bus_pid"
for _ in $(seq 1 50); do kill -0 "$bus_pid" 2>/dev/null || break; sleep 0.1; done
as_host "$bin/chime" add lost --app org.example.tea --title "Bus lost" --in 1h >/dev/null || fail "the socket after the bus went"
bus_pid=$(dbus-daemon --config-file="$tmp/bus.conf" --fork --print-pid=1 --nosyslog)
for _ in $(seq 1 100); do has_owner && break; sleep 0.1; done
has_owner || fail "chimed did not take its name on the new bus"
[ "$(owner_pid)" = "$first" ] || fail "another chimed took the name"
as_host "$bin/chime" pending --app org.example.tea | grep -q lost || fail "the socket's add is not pending"
echo "ok   a lost bus is retried; the socket serves meanwhile"

# SIGTERM: chimed gives the name up, and the next call activates a new one.
first=$(owner_pid)
kill -TERM "$first"
for _ in $(seq 1 100); do has_owner || break; sleep 0.1; done
has_owner && [ "$(owner_pid)" = "$first" ] && fail "chimed kept the name after SIGTERM"
for _ in $(seq 1 100); do kill -0 "$first" 2>/dev/null || break; sleep 0.1; done
kill -0 "$first" 2>/dev/null && fail "chimed did not stop on SIGTERM"
forget "$first"
out=$(as_host gdbus call --session -d $name -o $path -m $name.Register org.example.tea '{}')
[ "$out" = "()" ] || fail "re-activation: $out"
[ "$(owner_pid)" != "$first" ] || fail "no new chimed"
chimed_pids+=("$(owner_pid)")
echo "ok   SIGTERM releases the name; the next call activates a new chimed"

# The socket's limit on calls in flight holds on the bus too: one at a time here (a chimed of
# its own, started by hand once the activated one has left).
second=$(owner_pid)
kill -TERM "$second"
for _ in $(seq 1 100); do kill -0 "$second" 2>/dev/null || break; sleep 0.1; done
kill -0 "$second" 2>/dev/null && fail "chimed did not stop on SIGTERM"
forget "$second"
"$bin/chimed" --socket "$tmp/limited.sock" --data-dir "$tmp/limited-data" --presenter none --sound-player none \
  --proc-root "$tmp/proc" --max-calls-per-connection 1 > "$tmp/limited.log" 2>&1 &
limited_pid=$!
chimed_pids+=("$limited_pid")
for _ in $(seq 1 100); do grep -q "serving the D-Bus API" "$tmp/limited.log" && break; sleep 0.1; done
CHIME_TEST_PROC=$tmp/proc timeout 30 "$python" - "$here" <<'PY' || { kill -TERM $limited_pid; fail "the call limit over D-Bus"; }
import asyncio, os, sys
sys.path.insert(0, sys.argv[1])
from chime_bus import BusError, Conn, fake_proc, v
fake_proc(os.environ["CHIME_TEST_PROC"])
async def main():
    conn = await Conn.open(os.environ["DBUS_SESSION_BUS_ADDRESS"])
    await conn.call("Register", "sa{sv}", ["org.example.tea", {}])
    # Adds answer once durable (a commit off the loop), so they overlap.
    calls = [conn.call("Add", "sa{sv}a{sv}a{sv}", [f"a{i}", {"title": v("s", "x")}, {"interval": v("d", 600.0)}, {}])
             for i in range(8)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    refused = [r for r in results if isinstance(r, BusError)]
    assert refused and all(r.reason == "TOO_MANY_CALLS" for r in refused), results
    assert len(refused) < len(results), results
    await conn.call("GetSettings")  # once answered, the next call is served
asyncio.run(main())
PY
kill -TERM $limited_pid
wait $limited_pid || true
forget "$limited_pid"
echo "ok   --max-calls-per-connection holds on the bus (TOO_MANY_CALLS)"

# No session bus at all: the D-Bus API is off with one log line; the socket serves.
DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/no-bus XDG_RUNTIME_DIR=$tmp/no-runtime \
  "$bin/chimed" --socket "$tmp/nobus.sock" --data-dir "$tmp/nobus-data" --presenter none --sound-player none \
  > "$tmp/nobus.log" 2>&1 &
nobus_pid=$!
chimed_pids+=("$nobus_pid")
for _ in $(seq 1 100); do grep -q "chimed listening" "$tmp/nobus.log" && break; sleep 0.1; done
CHIME_SOCKET=$tmp/nobus.sock "$bin/chime" pending --app org.example.tea >/dev/null || fail "the socket without a bus"
kill -TERM $nobus_pid
wait $nobus_pid || true
forget "$nobus_pid"
[ "$(grep -c "the D-Bus API is off" "$tmp/nobus.log")" = 1 ] || fail "no bus: $(cat "$tmp/nobus.log")"
echo "ok   without a session bus the D-Bus API is off, in one log line"

# An invalid configuration under socket activation (the user units: SystemdService= starts
# chimed.service with chimed.socket's listener): the refusing chimed takes the name too, so a
# D-Bus call is answered at once with CONFIG_INVALID and the socket's message, not left to the
# bus's activation timeout. systemd's part is played by a wrapper that binds the socket and
# passes it as LISTEN_FDS, as systemd does.
has_owner && fail "the name has an owner before the invalid-configuration activation"
printf 'missed-grace = "soon"\n' > "$tmp/bad.toml"
cat > "$tmp/socket-activate.py" <<'PY'
import os, socket, sys
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(sys.argv[1])
listener.listen(16)
if listener.fileno() != 3:
    os.dup2(listener.fileno(), 3)
os.set_inheritable(3, True)
os.environ.update(LISTEN_FDS="1", LISTEN_PID=str(os.getpid()))
os.execv(sys.argv[2], sys.argv[2:])
PY
cat > "$tmp/chimed-bad.sh" <<SH
#!/bin/sh
exec python3 "$tmp/socket-activate.py" "$tmp/bad.sock" "$bin/chimed" --config "$tmp/bad.toml" --proc-root "$tmp/proc" \
  >>"$tmp/chimed-bad.log" 2>&1
SH
chmod +x "$tmp/chimed-bad.sh"
sed "s|^Exec=.*|Exec=$tmp/chimed-bad.sh|" "$repo/deploy/dbus/$name.service" > "$tmp/services/$name.service"
busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig >/dev/null
message="chimed's configuration is invalid: $tmp/bad.toml:1: missed-grace: expected a number of seconds, got string"
started=$(date +%s%N)
out=$(as_host timeout 10 gdbus call --session -d $name -o $path -m $name.Register org.example.tea '{}' 2>&1 || true)
took_ms=$(( ($(date +%s%N) - started) / 1000000 ))
has_owner && chimed_pids+=("$(owner_pid)")
echo "$out" | grep -qF "GDBus.Error:$name.Error.CONFIG_INVALID: $message" || fail "invalid configuration over D-Bus: $out"
[ "$took_ms" -lt 5000 ] || fail "invalid configuration over D-Bus answered after $took_ms ms"
out=$(as_host timeout 10 gdbus call --session -d $name -o $path -m $name.GetSettings 2>&1 || true)
echo "$out" | grep -qF "$name.Error.CONFIG_INVALID: $message" || fail "a second method: $out"
out=$(CHIME_SOCKET=$tmp/bad.sock "$bin/chime" pending --app org.example.tea 2>&1 || true)
echo "$out" | grep -qF "CONFIG_INVALID: $message" || fail "the socket's message: $out"
refusing=$(owner_pid)
kill -TERM "$refusing"
for _ in $(seq 1 100); do kill -0 "$refusing" 2>/dev/null || break; sleep 0.1; done
kill -0 "$refusing" 2>/dev/null && fail "the refusing chimed did not stop on SIGTERM"
forget "$refusing"
echo "ok   an invalid configuration: the D-Bus call gets CONFIG_INVALID and the socket's message in ${took_ms} ms"

# The same without a service manager: the bus runs Exec= (chimed itself) with no socket passed.
# chimed then refuses on the bus alone, rather than exiting and leaving the caller a bare
# ChildExited.
cat > "$tmp/chimed-bad-bus.sh" <<SH
#!/bin/sh
exec "$bin/chimed" --config "$tmp/bad.toml" --proc-root "$tmp/proc" >>"$tmp/chimed-bad-bus.log" 2>&1
SH
chmod +x "$tmp/chimed-bad-bus.sh"
sed "s|^Exec=.*|Exec=$tmp/chimed-bad-bus.sh|" "$repo/deploy/dbus/$name.service" > "$tmp/services/$name.service"
busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig >/dev/null
out=$(as_host timeout 10 gdbus call --session -d $name -o $path -m $name.GetPending '{}' 2>&1 || true)
has_owner && chimed_pids+=("$(owner_pid)")
echo "$out" | grep -qF "GDBus.Error:$name.Error.CONFIG_INVALID: $message" || fail "invalid configuration, bus-activated: $out"
refusing=$(owner_pid)
kill -TERM "$refusing"
for _ in $(seq 1 100); do kill -0 "$refusing" 2>/dev/null || break; sleep 0.1; done
kill -0 "$refusing" 2>/dev/null && fail "the bus-only refusing chimed did not stop on SIGTERM"
forget "$refusing"
echo "ok   an invalid configuration, activated by the bus itself: CONFIG_INVALID on the bus alone"
